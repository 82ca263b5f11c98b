-- Float literal patterns (also an integer literal at a float type).
-- ==
-- input { [0.5f32, 2f32, -1.5f32, 3f32] }
-- output { [1, 2, 3, 0] }
def main (xs: []f32): []i32 =
  map (\x -> match x
             case 0.5 -> 1
             case 2 -> 2
             case -1.5 -> 3
             case _ -> 0) xs
