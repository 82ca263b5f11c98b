-- The members Futhark's `real` and `float` module types add over
-- `numeric`, used through functors applied to f16, f32 and f64: a
-- quarter turns by `sinpi`/`cospi`, `to_i64` and `rsqrt` from `real`;
-- the number after 1 by `nextafter`, `epsilon` and `ldexp`, and the sign
-- bit of `copysign`'s result by `get_bit`, from `float`.
-- ==
-- input { 4i64 }
-- output { [0.0, 1.0, 0.0, -1.0] [1.0, 0.0, -1.0, 0.0] 2i64 0.5
--          [0f32, 1f32, 0f32, -1f32] [1f16, 0f16, -1f16, 0f16]
--          true true true 1 1 1 }

module turns (R: real) = {
  def points (n: i64): [n]R.t =
    tabulate n (\i -> R.sinpi (R.from_fraction (2 * i) n))
  def cos_points (n: i64): [n]R.t =
    tabulate n (\i -> R.cospi (R.from_fraction (2 * i) n))
}

module steps (F: float) = {
  -- The number after 1 is `1 + epsilon`, and `ldexp` scales it exactly.
  def agree: bool =
    let one = F.i32 1
    let up = F.nextafter one (F.i32 2)
    in F.(up == one + epsilon) && F.(ldexp up 3 == i32 8 * up)
  -- The sign bit of a negative number.
  def sign: i32 = F.get_bit (F.num_bits - 1) (F.copysign (F.i32 1) (F.i32 (-3)))
}

module turns64 = turns f64
module turns32 = turns f32
module turns16 = turns f16
module s16 = steps f16
module s32 = steps f32
module s64 = steps f64

def main (n: i64) =
  ( turns64.points n, turns64.cos_points n, f64.to_i64 (f64.sinpi 0.5 + 1.5), f64.rsqrt 4
  , turns32.points n, turns16.cos_points n
  , s16.agree, s32.agree, s64.agree
  , s16.sign, s32.sign, s64.sign )
