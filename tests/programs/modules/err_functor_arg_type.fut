-- A functor argument whose value has the wrong type.
-- ==
-- error: does not match

module type VAL = { val v : i32 }

module F (P: VAL) = { def w = P.v + 1 }

module X = F { def v = 1.5f32 }

def main (x: i32) = x + X.w
