-- An anonymous size in a function's return type is inferred from the
-- body: `repeat_to`'s result has size `l`, so `unflatten` of it knows its
-- sizes are `n` and `m`. See Note [Anonymous result sizes].
-- ==
-- input { 2i64 3i64 [1i64, 2i64] }
-- output { [[1i64, 2i64, 1i64], [2i64, 1i64, 2i64]] }
-- input { 3i64 1i64 [7i64] }
-- output { [[7i64], [7i64], [7i64]] }

def repeat_to (l: i64) (x: []i64) : []i64 =
  let k = (l + length x - 1) / length x
  in take l (flatten (replicate k x))

def main (n: i64) (m: i64) (xs: []i64) : [][]i64 =
  unflatten (repeat_to (n * m) xs)
