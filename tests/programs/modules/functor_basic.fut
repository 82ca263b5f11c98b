-- A functor applied to a named module.
-- ==
-- input { [1, 2, 3, 4] } output { 10 }

module type MONOID = {
  type t
  val ne : t
  val op : t -> t -> t
}

module Sum (M: MONOID) = {
  def sum (xs: []M.t) : M.t = reduce M.op M.ne xs
}

module I32Add = {
  type t = i32
  def ne : i32 = 0
  def op (a: i32) (b: i32) = a + b
}

module S = Sum I32Add

def main (xs: []i32) = S.sum xs
