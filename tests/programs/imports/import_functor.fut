-- A functor and module type from an imported file.
-- ==
-- input { [2, 3, 4] } output { 24 }

import "lib/monoid"

module Mul = Reduce { type t = i32 def ne : i32 = 1 def op (a: i32) (b: i32) = a * b }

def main (xs: []i32) = Mul.total xs
