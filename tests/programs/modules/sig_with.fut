-- `with t = ...` makes an abstract type of a module type concrete.
-- ==
-- input { 20 } output { 21 }

module type MONOID = {
  type t
  val ne : t
  val op : t -> t -> t
}

module Add : MONOID with t = i32 = {
  type t = i32
  def ne = 0
  def op (a: t) (b: t) = a + b
}

def main (x: i32) = Add.op x (Add.op Add.ne 1)
