-- The applications of a functor ascribed a parametric module type have
-- abstract types.
-- ==
-- error: expected

module type VAL = { val v : i32 }
module type COUNTER = { type t val mk : i32 -> t val get : t -> i32 }

module Scaled (P: VAL) = { type t = i32 def mk (x: i32) = x * P.v def get (x: t) = x }

module Sealed : (P: VAL) -> COUNTER = Scaled

module C = Sealed { def v = 2 }

def main (x: i32) : i32 = C.mk x + 1
