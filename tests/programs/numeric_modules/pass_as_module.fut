-- The prelude's numeric modules are ordinary modules: bound to other
-- names and used in local opens; `bool` too.
-- ==
-- input { 3 } output { 6 9i64 true 2u8 }

module I = i32
def main (x: i32) =
  (I.sum [x, x], I.to_i64 I.(x * x), bool.i32 x, u8.(1 + 1))
