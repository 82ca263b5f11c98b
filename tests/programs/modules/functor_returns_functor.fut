-- A functor whose body is another functor (a functor returning a
-- functor), applied twice.
-- ==
-- input { 2 } output { 2 7 }

module type VAL = { val v : i32 }

module Adder (A: VAL) = {
  def plus (x: i32) = x + A.v
}

module Choose (C: VAL) = Adder

module AddFive = (Choose { def v = 0 }) { def v = 5 }

def main (x: i32) = (x, AddFive.plus x)
