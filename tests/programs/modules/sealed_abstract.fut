-- An opaque ascription: the abstract type is used only through the
-- module's functions.
-- ==
-- input { 4 } output { 9 }

module type COUNTER = {
  type t
  val zero : t
  val incr : t -> t
  val get : t -> i32
}

module Counter : COUNTER = {
  type t = i32
  def zero = 0
  def incr (c: t) = c + 1
  def get (c: t) = c * 2 + 1
}

def main (n: i32) =
  let c = loop c = Counter.zero for _i < n do Counter.incr c
  in Counter.get c
