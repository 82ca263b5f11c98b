-- An entry point taking and returning matrices.
-- ==
-- entry: scale
-- input { 2 [[1, 2], [3, 4]] }
-- output { [[2, 4], [6, 8]] }
entry scale (k: i32) (m: [][]i32): [][]i32 = map (map (* k)) m
