-- Fusion in a loop body.
-- ==
-- input { [1, 2, 3] 3i64 }
-- output { [15i32, 23i32, 31i32] }
-- structure { Screma 1 DoLoop 1 /DoLoop/Map 1 }

def main (xs: []i32) (k: i64): []i32 =
  loop ys = xs for _i < k do map (+ 1) (map (* 2) ys)
