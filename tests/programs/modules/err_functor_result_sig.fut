-- A functor whose body does not match its result module type.
-- ==
-- error: missing value `g`

module type R = { val f : i32 -> i32 val g : i32 -> i32 }

module F (P: { val k : i32 }) : R = { def f (x: i32) = x + P.k }

def main (z: i32) = z
