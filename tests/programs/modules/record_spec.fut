-- Record types in module signatures: a transparent record type, values
-- and functions of it, and a functor using the fields through the
-- parameter.
-- ==
-- input { 1.5f32 2.0f32 }
-- output { 2.5f32 4.0f32 6.5f32 }
module type vector = {
  type vec = {x: f32, y: f32}
  val zero: vec
  val add: vec -> vec -> vec
  val scale: f32 -> vec -> vec
}

module V2: vector = {
  type vec = {x: f32, y: f32}
  def zero: vec = {x = 0.0, y = 0.0}
  def add (a: vec) (b: vec): vec = {x = a.x + b.x, y = a.y + b.y}
  def scale (k: f32) (v: vec): vec = {x = k * v.x, y = k * v.y}
}

module Sum (V: vector) = {
  def sum_all (vs: []V.vec): V.vec = reduce V.add V.zero vs
  def total (v: V.vec): f32 = v.x + v.y
}

module S = Sum V2

def main (a: f32) (b: f32): (f32, f32, f32) =
  let v = S.sum_all [{x = a, y = b}, V2.scale 2.0 {x = 0.5, y = 1.0}]
  in (v.x, v.y, S.total v)
