-- Concatenating matrices along the outer dimension.
-- ==
-- input { [[1, 2]] [[3, 4], [5, 6]] }
-- output { [[1, 2], [3, 4], [5, 6]] }
def main [a][b][m] (x: [a][m]i32) (y: [b][m]i32): [][m]i32 = x ++ y
