-- The unlifted parameter of a type abbreviation cannot be given a
-- function type.
-- ==
-- error: cannot be instantiated
type pair 'a = (a, a)

def main (x: i32): i32 =
  let p: pair (i32 -> i32) = ((+ 1), (* 2))
  in p.0 (p.1 x)
