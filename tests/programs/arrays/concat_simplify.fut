-- Concatenations of concatenations are one; a size coercion of a
-- concatenation is the concatenation at the new size (after its check).
-- ==
-- input { [1] [2, 3] [4] 4i64 } output { [1, 2, 3, 4] }
-- input { [1] [2, 3] [4] 3i64 } error: cannot match shape
-- structure { Concat 1 Reshape 0 }

def main (xs: []i32) (ys: []i32) (zs: []i32) (n: i64): [n]i32 =
  xs ++ (ys ++ zs) :> [n]i32
