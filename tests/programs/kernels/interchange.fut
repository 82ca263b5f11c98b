-- Map-loop interchange (rule G7): a map whose lambda is a `for` loop
-- whose body has parallelism becomes the loop around a map of the body,
-- so each iteration is one kernel over both dimensions instead of a
-- sequential loop per thread.
-- ==
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] 3i64 }
-- output { [[8f32, 16f32, 24f32], [32f32, 40f32, 48f32]] }
-- input { [[1f32, 2f32]] 0i64 }
-- output { [[1f32, 2f32]] }
-- structure gpu { /DoLoop/SegMap 1 SegMap 1 DoLoop 1 }

def main (xss: [][]f32) (k: i64) : [][]f32 =
  map (\xs -> loop ys = xs for _i < k do map (\y -> y * 2) ys) xss
