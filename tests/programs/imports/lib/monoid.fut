-- A library file: a module type and a functor over it.

module type MONOID = {
  type t
  val ne : t
  val op : t -> t -> t
}

module Reduce (M: MONOID) = {
  def total (xs: []M.t) : M.t = reduce M.op M.ne xs
}
