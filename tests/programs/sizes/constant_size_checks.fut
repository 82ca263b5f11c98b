-- A size named by a top-level constant is checked at run time: by a
-- coercion, and on an entry point's parameter (Note [Sizes from
-- constants]).
-- ==
-- input { 2i64 [1, 2, 3] } output { [0i64, 1i64] [2, 3, 4] }
-- input { 1i64 [1, 2, 3] } error: cannot match|match
-- input { 2i64 [1, 2] } error: invalid|match

def two : i64 = 2
def three : i64 = 1 + two

entry main (n: i64) (xs: [three]i32) : ([two]i64, [three]i32) =
  (iota n :> [two]i64, map (+ 1) xs)
