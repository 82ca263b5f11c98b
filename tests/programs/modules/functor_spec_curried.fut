-- A curried functor sealed by a parametric module spec of two
-- parameters; the result's abstract type stays abstract, its values work.
-- ==
-- input { 5 } output { 8 }

module type VAL = { val v : i32 }

module type LIB = {
  module Add : (A: VAL) -> (B: VAL) -> { type t val mk : i32 -> t val get : t -> i32 }
}

module Lib : LIB = {
  module Add (A: VAL) (B: VAL) = {
    type t = i32
    def mk (x: i32) = x + A.v
    def get (x: t) = x + B.v
  }
}

module S = Lib.Add { def v = 1 } { def v = 2 }

def main (x: i32) = S.get (S.mk x)
