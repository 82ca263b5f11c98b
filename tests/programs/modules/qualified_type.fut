-- Qualified types `M.t` in annotations and parameters.
-- ==
-- input { 1.5f32 2.5f32 } output { 4.0f32 -3.0f32 }

module Vec = {
  type t = {x: f32, y: f32}
  def mk (x: f32) (y: f32) : t = {x, y}
  def add (a: t) (b: t) : t = {x = a.x + b.x, y = a.y + b.y}
}

def main (a: f32) (b: f32) : (f32, f32) =
  let v : Vec.t = Vec.add (Vec.mk a b) (Vec.mk b (-a - b - 1.5))
  in (v.x, v.y)
