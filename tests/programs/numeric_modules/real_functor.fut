-- A functor over any `real` module, applied to f16, f32 and f64: a mean
-- and a clamped interpolation written only with the module's members.
-- ==
-- input { [1f16, 2f16, 6f16] [1f32, 2f32, 6f32] [1.0, 2.0, 6.0] }
-- output { 3f16 3f32 3.0 2.5f16 2.5f32 2.5 true false }

module avg (R: real) = {
  def mean [n] (xs: [n]R.t): R.t = R.(sum xs / i64 n)
  def mix (a: R.t) (b: R.t) (w: R.t): R.t = R.lerp a b (R.max (R.i32 0) (R.min (R.i32 1) w))
  def bad (x: R.t): bool = R.isnan x || R.isinf x
}

module a16 = avg f16
module a32 = avg f32
module a64 = avg f64

def main (hs: []f16) (fs: []f32) (ds: []f64) =
  (a16.mean hs, a32.mean fs, a64.mean ds,
   a16.mix 2 3 0.5, a32.mix 2 3 0.5, a64.mix 2 3 0.5,
   a64.bad (f64.inf - f64.inf), a32.bad 1)
