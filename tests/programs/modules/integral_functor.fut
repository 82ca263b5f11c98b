-- A functor over the prelude's `integral` module type; the body converts
-- with `R.i32` and uses the module's operators through a local open.
-- ==
-- input { [7u8, 250u8] [-7i64, 9i64] } output { [3u8, 125u8] 1u8 [-3i64, 4i64] 2i64 }

module Halves (R: integral) = {
  def halve (xs: []R.t) = map (\x -> R.(x // i32 2)) xs
  def odd_count (xs: []R.t) : R.t = R.sum (map (\x -> R.((x %% i32 2) * (x %% i32 2))) xs)
}

module H8 = Halves u8
module H64 = Halves i64

def main (xs: []u8) (ys: []i64) = (H8.halve xs, H8.odd_count xs, H64.halve ys, H64.odd_count ys)
