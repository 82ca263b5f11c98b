-- Local functions are generalised: one definition used at two types.
-- ==
-- input { 5 }
-- output { 7 true 6i64 }
def main (x: i32): (i32, bool, i64) =
  let twice f y = f (f y)
  let id' 't (v: t): t = v
  in (twice (+ 1) x, twice (\b -> !b) (id' true), id' (twice (* 2) 3i64) / 2)
