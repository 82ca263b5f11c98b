-- A functor sealed by a parametric module spec: its applications have
-- only what the spec's result module type lists.
-- ==
-- error: unknown name `S.unused`

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module type LIB = { module Scale : (P: VAL) -> FUN }

module Lib : LIB = {
  module Scale (P: VAL) = { def f (x: i32) = x * P.v def unused = 0 }
}

module S = Lib.Scale { def v = 2 }

def main (x: i32) = S.f x + S.unused
