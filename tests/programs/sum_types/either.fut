-- An either type with two payload types: sums of each side.
-- ==
-- input { [3, -2, 7, -5, 0] }
-- output { 10 7.0f32 }
type either 'a 'b = #left a | #right b

def classify (x: i32): either i32 f32 =
  if x >= 0 then #left x else #right (f32.i32 (-x))

def main (xs: []i32): (i32, f32) =
  let es = map classify xs
  let ls = map (\e -> match e case #left v -> v case #right _ -> 0) es
  let rs = map (\e -> match e case #left _ -> 0f32 case #right w -> w) es
  in (i32.sum ls, f32.sum rs)
