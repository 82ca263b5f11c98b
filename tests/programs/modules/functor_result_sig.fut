-- A functor with a result module type: the result is sealed.
-- ==
-- input { 6 } output { 7 }

module type STACKISH = {
  type t
  val empty : t
  val push : i32 -> t -> t
  val size : t -> i32
}

module type UNIT = {}

module Counting (U: UNIT) : STACKISH = {
  type t = i32
  def empty = 0
  def push (_: i32) (s: t) = s + 1
  def size (s: t) = s
}

module C = Counting {}

def main (n: i32) = C.size (loop s = C.push 0 C.empty for i < n do C.push i s)
