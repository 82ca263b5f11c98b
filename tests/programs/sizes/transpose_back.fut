-- Transposing twice gives back the sizes `[n][m]`, so the result can be
-- added to the original matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[2, 4, 6], [8, 10, 12]] }
def main [n][m] (a: [n][m]i32): [n][m]i32 = map2 (map2 (+)) a (transpose (transpose a))
