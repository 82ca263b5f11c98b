-- A strided slice is in bounds when the elements it selects are: its end
-- may pass the array's end (`[7:9:2]` of 8 elements is `[7]`), but no
-- selected element may (Note [Slice bounds]).
-- ==
-- entry: up
-- input { [0,1,2,3,4,5,6,7] } output { [7] empty([0]i32) }
-- input { [0,1,2,3,4,5,6] } error: out of bounds
-- ==
-- entry: down
-- input { [0,1,2,3,4,5,6,7] } output { [7, 5, 3] [3, 0] }
-- input { [0,1] } error: out of bounds
-- ==
-- entry: down_past_start
-- input { [0,1,2,3,4,5,6,7,8,9] } error: out of bounds

entry up (xs: []i32) = (xs[7:9:2], xs[8:8:2])
entry down (xs: []i32) = (xs[7:2:-2], xs[3:-3:-3])
entry down_past_start (xs: []i32) = xs[9:-10:-2]
