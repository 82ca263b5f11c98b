-- A size-parameterised abstract type `type vec [n]`.
-- ==
-- input { [1, 2, 3] } output { 12 }

module type VEC = {
  type vec [n]
  val from : [n]i32 -> vec [n]
  val total [n] : vec [n] -> i32
}

module V : VEC = {
  type vec [n] = [n]i32
  def from [n] (xs: [n]i32) : vec [n] = map (* 2) xs
  def total [n] (v: vec [n]) = reduce (+) 0 v
}

def main (xs: []i32) = V.total (V.from xs)
