-- Lifted type parameters `'^a` instantiated with function types:
-- composition, a function applied twice, and `twice` at a type of
-- functions on functions.
-- ==
-- input { 3 }
-- output { 7 10 5 }
-- input { -1 }
-- output { 3 2 1 }
def compose '^a '^b '^c (f: b -> c) (g: a -> b): a -> c = \x -> f (g x)

def twice '^a (f: a -> a): a -> a = compose f f

def main (x: i32): (i32, i32, i32) =
  let add4 = twice (twice (+ 1))
  let h = compose (* 2) (+ 2)
  let shift (f: i32 -> i32): i32 -> i32 = compose f (+ 1)
  in (add4 x, h x, twice shift (\y -> y) x)
