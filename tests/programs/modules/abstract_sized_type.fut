-- An abstract type with a size parameter keeps the size: a size
-- parameter can be bound from a value of it, and sizes must agree.
-- ==
-- input { 3i64 } output { 3i64 6i64 }

module vec : {
  type t [n]
  val mk : (n: i64) -> t [n]
  val len [n] : t [n] -> i64
  val add [n] : t [n] -> t [n] -> t [n]
  val sum [n] : t [n] -> i64
} = {
  type t [n] = [n]i64
  def mk n = replicate n 1i64
  def len [n] (_: [n]i64) = n
  def add [n] (xs: [n]i64) (ys: [n]i64) = map2 (+) xs ys
  def sum (xs: []i64) = i64.sum xs
}

def main (n: i64) =
  let v = vec.mk n
  let f [k] (_: vec.t [k]) = k
  in (f v, vec.sum (vec.add v v))
