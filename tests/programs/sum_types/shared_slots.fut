-- Constructors whose payloads have equal types share slots in the
-- representation; each value still gives back its own payload.
-- ==
-- input { [0, 1, 2, 3] }
-- output { [1.0f32, 12.0f32, 2.5f32, 7.0f32] }
type v = #a i32 | #b i32 i32 | #c f32 | #d f32 i32

def mk (k: i32): v =
  if k == 0 then #a 1
  else if k == 1 then #b 5 7
  else if k == 2 then #c 2.5
  else #d 3.0 4

def main (ks: []i32): []f32 =
  map (\k -> match mk k
             case #a x -> f32.i32 x
             case #b x y -> f32.i32 (x + y)
             case #c f -> f
             case #d f x -> f + f32.i32 x) ks
