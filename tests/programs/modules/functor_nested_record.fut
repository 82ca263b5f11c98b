-- A functor whose parameter holds a nested record value: its fields give
-- a size and the arithmetic of the result, and a nested update builds a
-- new record from it.
-- ==
-- input { 9 }
-- output { 4 2 3i64 [0, 0, 1] }
module type config = {
  val cfg: {size: i64, scale: {num: i32, den: i32}}
}

module Scaler (C: config) = {
  def apply (x: i32): i32 = x * C.cfg.scale.num / C.cfg.scale.den
  def doubled = C.cfg with scale.num = C.cfg.scale.num * 2
  def table: []i32 = tabulate C.cfg.size (\i -> apply (i32.i64 i))
}

module Half = Scaler { def cfg = {size = 3i64, scale = {num = 1, den = 2}} }

def main (x: i32): (i32, i32, i64, []i32) =
  (Half.apply x, Half.doubled.scale.num, Half.doubled.size, Half.table)
