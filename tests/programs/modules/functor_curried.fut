-- A functor of two parameters, applied one at a time.
-- ==
-- input { 3 } output { 13 }

module type VAL = { val v : i32 }

module Pair (A: VAL) (B: VAL) = {
  def sum = A.v + B.v
}

module P1 = Pair { def v = 10 }
module P2 = P1 { def v = 3 }

def main (x: i32) = P2.sum + x - 3
