-- A functor over any `integral` module, applied to the prelude's i8 and
-- u64: operators, derived members (`sum`, `maximum`, `highest`, `ctz`,
-- `get_bit`) and conversions through the parameter.
-- ==
-- input { [1i8, -3i8, 7i8] [5u64, 18446744073709551615u64, 8u64] }
-- output { 5i8 7i8 127i8 0i32 1i32 12u64 18446744073709551615u64 3i32 64i32 }

module stats (M: integral) = {
  def total [n] (xs: [n]M.t): M.t = M.sum xs
  def top [n] (xs: [n]M.t): M.t = M.maximum xs
  def tz (x: M.t): i32 = M.ctz x
  def top_bit (x: M.t): i32 = M.get_bit (M.num_bits - 1) x
}

module s8 = stats i8
module s64 = stats u64

def main (xs: []i8) (ys: []u64) =
  (s8.total xs, s8.top xs, i8.highest, s8.tz (i8.i32 1), s8.top_bit (-1),
   s64.total ys, s64.top ys, s64.tz 8, u64.num_bits)
