-- Using a functor's member without applying it.
-- ==
-- error: expected a structure

module F (P: {}) = { def x = 1 }

def main (y: i32) = y + F.x
