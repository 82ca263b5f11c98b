-- A functor's body sees its parameter's abstract types as abstract, even
-- where every argument would make them `i32`.
-- ==
-- error: expected

module type HAS_T = { type t val x : t }

module F (P: HAS_T) = { def y = P.x + 1 }

def main (z: i32) = z
