-- Maximum subarray sum (Kadane) as a sequential loop.
-- ==
-- input { [-2, 1, -3, 4, -1, 2, 1, -5, 4] }
-- output { 6 }
-- input { [-3, -1, -2] }
-- output { 0 }
def main (xs: []i32): i32 =
  let (best, _) =
    loop (best, cur) = (0, 0) for x in xs do
      let cur' = i32.max 0 (cur + x)
      in (i32.max best cur', cur')
  in best
