-- A functor applied to an anonymous structure, with parentheses.
-- ==
-- input { [3.0f32, 4.0f32] } output { 12.0f32 }

module type MONOID = {
  type t
  val ne : t
  val op : t -> t -> t
}

module Fold (M: MONOID) = {
  def fold (xs: []M.t) : M.t = reduce M.op M.ne xs
}

module Prod = Fold({ type t = f32 def ne : f32 = 1 def op (a: f32) (b: f32) = a * b })

def main (xs: []f32) : f32 = Prod.fold xs
