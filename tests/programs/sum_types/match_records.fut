-- `match` on a record holding a sum: record patterns with constructor
-- patterns inside, punned and renamed fields.
-- ==
-- input { 1.0f32 2.0f32 3.0f32 }
-- output { 6.0f32 3.0f32 }
type shape = #circle f32 | #rect f32 f32

def area (s: {shape: shape, scale: f32}): f32 =
  match s
  case {shape = #circle r, scale} -> 3 * r * r * scale
  case {shape = #rect w h, scale = k} -> w * h * k

def main (r: f32) (w: f32) (h: f32): (f32, f32) =
  (area {shape = #circle r, scale = 2f32}, area {shape = #rect w h, scale = 0.5f32})
