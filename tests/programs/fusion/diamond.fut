-- A diamond: one producer, two consumers, one join.
-- ==
-- input { [1, 2, 3] }
-- output { [-3i32, -7i32, -11i32] }
-- structure { Screma 1 Map 1 }

def main (xs: []i32): []i32 =
  let a = map (* 2) xs
  let b = map (+ 1) a
  let c = map (* 3) a
  in map2 (-) b c
