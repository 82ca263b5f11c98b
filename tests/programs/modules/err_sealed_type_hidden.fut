-- Two sealings of the same structure give different abstract types.
-- ==
-- error: expected

module type S = { type t val mk : i32 -> t val get : t -> i32 }

module Impl = { type t = i32 def mk (x: i32) = x def get (x: t) = x }

module A : S = Impl
module B : S = Impl

def main (z: i32) = B.get (A.mk z)
