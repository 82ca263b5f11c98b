-- Segmented sum, the sum of each row (anchor: torch.sum(dim=1)), on two
-- shapes of 10^8 elements: few long rows and many short ones. The big
-- datasets are for `futmlir bench` only (`notest`).
-- ==
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] } output { [6f32, 15f32] }
-- input { empty([0][4]f32) } output { empty([0]f32) }
-- notest random input { [10000][10000]f32 }
-- notest random input { [1000000][100]f32 }
def main (xss: [][]f32): []f32 = map (\xs -> reduce (+) 0 xs) xss
