-- An abstract type in a nested module spec, used by a sibling value.
-- ==
-- input { 8 } output { 4 }

module type S = {
  module Key : { type k val mk : i32 -> k }
  val get : Key.k -> i32
}

module M : S = {
  module Key = { type k = i32 def mk (x: i32) = x / 2 }
  def get (k: Key.k) = k
}

def main (x: i32) = M.get (M.Key.mk x)
