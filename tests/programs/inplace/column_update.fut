-- Updating a column slice of a matrix.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { [[1, 0], [3, 0], [5, 0]] }
def main [n] (m: *[n][2]i32): [n][2]i32 = m with [:, 1] = replicate n 0
