-- Replacing a whole row of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [[7, 7, 7], [4, 5, 6]] }
def main [r][c] (m: *[r][c]i32): [r][c]i32 = m with [0] = replicate c 7
