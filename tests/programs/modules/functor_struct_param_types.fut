-- A functor's body refers to the parameter's types; the result's types
-- are the argument's.
-- ==
-- input { [4i64, 1i64, 3i64] } output { [8i64, 2i64, 6i64] 16i64 }

module type NUM = {
  type t
  val add : t -> t -> t
  val zero : t
}

module Lin (N: NUM) = {
  type t = N.t
  def double (xs: []t) = map (\x -> N.add x x) xs
  def sum (xs: []t) : t = reduce N.add N.zero xs
}

module L = Lin { type t = i64 def add (a: i64) (b: i64) = a + b def zero : i64 = 0 }

def main (xs: []i64) : ([]i64, i64) = let d = L.double xs in (d, L.sum d)
