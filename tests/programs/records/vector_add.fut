-- Records as function parameters and results.
-- ==
-- input { 1.5f32 2.0f32 0.25f32 -1.0f32 }
-- output { 1.75f32 1.0f32 }
def vadd (a: {x: f32, y: f32}) (b: {x: f32, y: f32}): {x: f32, y: f32} =
  {x = a.x + b.x, y = a.y + b.y}

def main (ax: f32) (ay: f32) (bx: f32) (by: f32): (f32, f32) =
  let r = vadd {x = ax, y = ay} {x = bx, y = by}
  in (r.x, r.y)
