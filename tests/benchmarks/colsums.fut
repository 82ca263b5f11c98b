-- Column sums (issue 25; anchor: `x.sum(0)`): a segred whose segments
-- run down the columns, which `segop-coalesce` reduces by columns (Note
-- [Column reductions]). The big dataset is for `futmlir bench` only.
-- ==
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] } output { [9f32, 12f32] }
-- notest random input { [10000][10000]f32 }

def main [n][m] (xss: [n][m]f32) : [m]f32 = map f32.sum (transpose xss)
