-- Map-loop interchange with a scalar merge parameter: the body reads the
-- lambda's parameter and the loop index besides, and reduces (a
-- segmented reduction per iteration).
-- ==
-- input { [1i32, 2i32, 3i32] [1i32, 10i32] 2i64 }
-- output { [145i32, 289i32, 433i32] }
-- structure gpu { /DoLoop/SegRed 1 DoLoop 1 }

def main (xs: []i32) (ys: []i32) (k: i64) : []i32 =
  map (\x -> loop s = x for i < k do s + i32.i64 i + reduce (+) 0 (map (* s) ys)) xs
