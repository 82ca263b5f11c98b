-- A module spec refined with a type the module type declared before it
-- (`module bits: integral with t = int_t`): inside the functor the
-- module's `t` is the parameter's `int_t`, applied to f32 and f64.
-- ==
-- input { 1.0000001f32 3.0 }
-- output { 1 0 1065353216u32 }
module type with_bits = {
  type t
  type int_t
  module bits: integral with t = int_t
  val to_bits : t -> int_t
}

module low_bit (P: with_bits) = {
  def get (x: P.t): i32 = P.bits.get_bit 0 (P.to_bits x)
  def clear (x: P.t): P.int_t = P.bits.set_bit 0 (P.to_bits x) 0
}

module single = low_bit { type t = f32 type int_t = u32 module bits = u32 def to_bits = f32.to_bits }
module double = low_bit { type t = f64 type int_t = u64 module bits = u64 def to_bits = f64.to_bits }

def main (x: f32) (y: f64): (i32, i32, u32) = (single.get x, double.get y, single.clear x)
