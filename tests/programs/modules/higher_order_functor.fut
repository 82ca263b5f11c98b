-- A higher-order functor: its parameter is itself a parametric module.
-- ==
-- input { 5 } output { 11 26 }

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module Twice (G: (P: VAL) -> FUN) (A: VAL) = {
  module First = G A
  def twice (x: i32) = First.f (First.f x)
}

module AddV (P: VAL) = { def f (x: i32) = x + P.v }
module MulV (P: VAL) = { def f (x: i32) = x * P.v }

module T1 = Twice AddV { def v = 3 }
module T2 = Twice MulV { def v = 2 }

def main (x: i32) = (T1.twice x, T2.twice x + 6)
