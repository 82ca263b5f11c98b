-- One functor, two instances at different types.
-- ==
-- input { [1, 5, 3] [2.0, 0.5] } output { 5 2.0 }

module type ORD = {
  type t
  val lowest : t
  val max : t -> t -> t
}

module Max (O: ORD) = {
  def maximum (xs: []O.t) = reduce O.max O.lowest xs
}

module MI = Max { type t = i32 def lowest = i32.lowest def max (a: i32) (b: i32) = i32.max a b }
module MF = Max { type t = f64 def lowest = f64.lowest def max (a: f64) (b: f64) = f64.max a b }

def main (xs: []i32) (ys: []f64) = (MI.maximum xs, MF.maximum ys)
