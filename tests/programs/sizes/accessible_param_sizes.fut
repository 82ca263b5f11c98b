-- Sizes a function type can name: a parameter named as a whole, and the
-- tuple parameter's own components in an inferred return type, which
-- the caller sees as an unknown size.
-- ==
-- input { 3i64 } output { 3i64 4i64 }

def f (x: i64) (y: i64, z: i64) (A: [x]bool) = length A + y - z

def g (s: i64, t: i64) = iota (s + t)

def main (n: i64) = (f n (1, 1) (replicate n true), length (g (n, 1)))
