-- A value of an abstract type passed for a `*t` parameter is consumed.
-- ==
-- error: consumed

module type mt = {
  type t
  val mk : i32 -> *t
  val bump : *t -> *t
  val get : t -> i32
}

module m : mt = {
  type t = [1]i32
  def mk (x: i32) = [x]
  def bump (xs: *[1]i32) = xs with [0] = xs[0] + 1
  def get (xs: [1]i32) = xs[0]
}

def main (x: i32) =
  let s = m.mk x
  let s2 = m.bump s
  in m.get s + m.get s2
