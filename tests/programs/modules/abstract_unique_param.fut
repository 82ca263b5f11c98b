-- `*t` of an abstract type: a parameter declared so may be consumed, a
-- value made by `mk` may be consumed, and a consumed value is not used
-- again.
-- ==
-- input { 3 } output { 5 }

module type mt = {
  type~ t
  val mk : i32 -> *t
  val f : *t -> *t
  val get : t -> i32
}

module m : mt = {
  type~ t = []i32
  def mk (x: i32) = [x]
  def f (xs: *[]i32) = xs with [0] = xs[0] + 1
  def get (xs: []i32) = xs[0]
}

def g (s: *m.t) : *m.t = m.f s

def main (x: i32) =
  let h = \(xs: *m.t) -> m.f xs
  in m.get (g (h (m.mk x)))
