-- Not fusible: the consumer is in a loop body, the producer outside;
-- fusing would recompute the producer each iteration.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { [5i32, 10i32, 15i32] }
-- structure { Screma 2 Map 2 }

def main (xs: []i32) (k: i64): []i32 =
  let ys = map (* 2) xs
  in loop acc = xs for _i < k do map2 (+) acc ys
