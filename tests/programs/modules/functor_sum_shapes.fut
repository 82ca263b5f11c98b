-- A functor over a module whose type is a sum type; the functor's
-- functions reduce over arrays of it.
-- ==
-- input { 2.0 3.0 }
-- output { 7.0 1 }
-- input { 2.0 5.0 }
-- output { 9.0 2 }
module type shape = {
  type s
  val area: s -> f64
  val kind: s -> i32
}

module Stats (S: shape) = {
  def total (xs: []S.s): f64 = f64.sum (map S.area xs)
  def largest (xs: []S.s): i32 =
    let pick (a1: f64, k1: i32) (a2: f64, k2: i32) = if a1 >= a2 then (a1, k1) else (a2, k2)
    let (_, k) = reduce pick (-f64.inf, 0) (map (\x -> (S.area x, S.kind x)) xs)
    in k
}

module Shapes = {
  type s = #square f64 | #triangle f64 f64
  def area (x: s): f64 =
    match x
    case #square a -> a * a
    case #triangle b h -> b * h / 2
  def kind (x: s): i32 =
    match x
    case #square _ -> 1
    case #triangle _ _ -> 2
}

module St = Stats Shapes

def main (a: f64) (b: f64): (f64, i32) =
  let xs: []Shapes.s = [#square a, #triangle a b]
  in (St.total xs, St.largest xs)
