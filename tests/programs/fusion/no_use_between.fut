-- Not fusible: the producer's result is indexed between it and its
-- consumer, so the consumer cannot take it over without computing it
-- twice.
-- ==
-- input { [1, 2, 3] }
-- output { [6i32, 8i32, 10i32] }
-- structure { Screma 2 Map 2 }

def main (xs: []i32): []i32 =
  let ys = map (* 2) xs
  let s = ys[1]
  in map (+ s) ys
