-- A parametric module spec in a module type: a structure that contains a
-- functor, sealed, and the functor applied through the sealed view.
-- ==
-- input { 4 } output { 12 }

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module type LIB = {
  module Scale : (P: VAL) -> FUN
  val base : i32
}

module Lib : LIB = {
  module Scale (P: VAL) = { def f (x: i32) = x * P.v def unused = 0 }
  def base = 3
}

module S = Lib.Scale { def v = Lib.base }

def main (x: i32) = S.f x
