-- An anonymous parametric module `\(P: S) -> e`, bound to a name and
-- given to a higher-order functor.
-- ==
-- input { 4 } output { 7 16 }

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module AddV = \(P: VAL) -> { def f (x: i32) = x + P.v }

module Apply (G: (P: VAL) -> FUN) = { module R = G { def v = 4 } def go (x: i32) = R.f x }

module Sq = Apply (\(P: VAL) : FUN -> { def f (x: i32) = x * P.v })

module Three = AddV { def v = 3 }

def main (x: i32) = (Three.f x, Sq.go x)
