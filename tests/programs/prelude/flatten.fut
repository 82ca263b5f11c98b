-- flatten and flatten_3d.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [1, 2, 3, 4, 5, 6] [1, 2, 3, 4, 5, 6, 7, 8] }
def main (a: [][]i32) (b: [][][]i32): ([]i32, []i32) = (flatten a, flatten_3d b)
