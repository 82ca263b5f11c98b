-- A matrix with rows but no columns.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { empty([2][0]i32) }
def main [n][m] (a: [n][m]i32): [n][0]i32 = map (\r -> take 0 r) a
