-- Not fusible: xs is consumed (updated in place) between the map that
-- reads it and the consumer; moving the map past the update would read a
-- consumed array.
-- ==
-- input { [1, 2, 3] }
-- output { [102i32, 5i32, 7i32] }
-- structure { Screma 2 Map 2 }

def main (xs: *[]i32): []i32 =
  let ys = map (+ 1) xs
  let zs = xs with [0] = 100
  in map2 (+) ys zs
