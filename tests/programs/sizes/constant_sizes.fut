-- A size may name a top-level constant, also in a module and in a type
-- abbreviation (Note [Sizes from constants]).
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] [0, 0, 0, 0] 7i64 }

def n: i64 = 3

module m = {
  def k = n + 1
  type row = [k]i32
  def zeros: row = replicate k 0
}

def inc (xs: [n]i32) : [n]i32 = map (+ 1) xs

entry main (xs: []i32) = (inc (xs :> [n]i32), m.zeros, n + m.k)
