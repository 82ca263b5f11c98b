-- A structure where a parametric module is expected.
-- ==
-- error: expected a parametric module

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module Apply (G: VAL -> FUN) = { module R = G { def v = 1 } }

module X = Apply { def v = 1 }

def main (x: i32) = x
