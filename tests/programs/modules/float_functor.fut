-- A functor over the prelude's `float` module type: `int_t`, `to_bits`
-- and `from_bits` of the argument.
-- ==
-- input { 1.0f32 -2.0 } output { 1065353216u32 -2.0 }

module Bits (F: float) = {
  def bits (x: F.t) : F.int_t = F.to_bits x
  def roundtrip (x: F.t) : F.t = F.from_bits (F.to_bits x)
}

module B32 = Bits f32
module B64 = Bits f64

def main (x: f32) (y: f64) : (u32, f64) = (B32.bits x, B64.roundtrip y)
