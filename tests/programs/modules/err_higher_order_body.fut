-- Inside a higher-order functor, the parameter's result has only what its
-- module type lists.
-- ==
-- error: unknown name `R.g`

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module Apply (G: (P: VAL) -> FUN) = {
  module R = G { def v = 1 }
  def go (x: i32) = R.g x
}

def main (x: i32) = x
