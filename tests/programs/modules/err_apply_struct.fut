-- Applying a structure as if it were a functor.
-- ==
-- error: expected a parametric module

module M = { def x = 1 }
module N = M { def y = 2 }

def main (x: i32) = x
