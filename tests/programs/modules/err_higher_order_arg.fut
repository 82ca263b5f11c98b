-- A functor given for a functor parameter must produce what the
-- parameter's module type says.
-- ==
-- error: missing value `f`

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module Apply (G: (P: VAL) -> FUN) = {
  module R = G { def v = 1 }
  def go (x: i32) = R.f x
}

module Wrong (P: VAL) = { def g (x: i32) = x + P.v }

module X = Apply Wrong

def main (x: i32) = X.go x
