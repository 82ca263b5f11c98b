-- A `def`'s anonymous parameter sizes (`[][]i32`) are size parameters
-- the body names (Note [Anonymous parameter sizes in the body]): mapping
-- over an empty `[0][3]` array keeps its inner size, as with declared
-- sizes `[n][m]`.
-- ==
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { [[1, 2], [3, 4]] } output { [[2, 3], [4, 5]] }

def main (xss: [][]i32) = map (map (+1)) xss

-- ==
-- entry: annotated
-- input { empty([0][2]i32) } output { empty([0][2]i32) }

entry annotated (xss: [][]i32) : [][]i32 = map (\xs -> map (+1) xs) xss
