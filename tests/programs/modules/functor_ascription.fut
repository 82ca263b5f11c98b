-- A functor ascribed a parametric module type: its applications are
-- sealed with the module type's result.
-- ==
-- input { 7 } output { 14 }

module type VAL = { val v : i32 }
module type COUNTER = { type t val mk : i32 -> t val get : t -> i32 }

module Scaled (P: VAL) = { type t = i32 def mk (x: i32) = x * P.v def get (x: t) = x }

module Sealed : (P: VAL) -> COUNTER = Scaled

module C = Sealed { def v = 2 }

def main (x: i32) = C.get (C.mk x)
