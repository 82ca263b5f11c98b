-- A functor body uses names from where the functor was defined, not
-- from where it is applied.
-- ==
-- input { 1 } output { 1001 }

def offset = 1000

module F (P: { val v : i32 }) = { def w = P.v + offset }

def offset2 = 5

module X = F { def v = 1 }

def main (x: i32) = X.w + x - 1
