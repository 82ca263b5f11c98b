-- A functor over the prelude's `real` module type, applied to the
-- built-in `f32` and `f64` modules.
-- ==
-- input { [3.0f32, 4.0f32] [1.0, 2.0, 2.0] } output { 5.0f32 3.0 }

module Norm (R: real) = {
  def norm (xs: []R.t) : R.t = R.sqrt (R.sum (map (\x -> R.(x * x)) xs))
}

module N32 = Norm f32
module N64 = Norm f64

def main (xs: []f32) (ys: []f64) = (N32.norm xs, N64.norm ys)
