-- The built-in numeric modules are modules: they can be renamed, their
-- type `t` named, and they can be given to functors.
-- ==
-- input { [1.0f32, 4.0f32, 9.0f32] } output { 6.0f32 9.0f32 }

module real = f32
type real = real.t

module type FIELD = {
  type t
  val sqrt : t -> t
  val sum [n] : [n]t -> t
  val maximum [n] : [n]t -> t
}

module Norms (F: FIELD) = {
  def sum_sqrt (xs: []F.t) = F.sum (map F.sqrt xs)
  def max (xs: []F.t) = F.maximum xs
}

module N = Norms f32

def main (xs: []real) : (real, f32) = (N.sum_sqrt xs, N.max xs)
