-- A matrix with no rows but a known row length.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { empty([0][3]i32) }
def main [n][m] (a: [n][m]i32): [][m]i32 = filter (\r -> r[0] > 100) a
