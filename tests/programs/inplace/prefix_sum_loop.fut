-- In-place updates inside a loop compute prefix sums.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [1, 3, 6, 10] }
-- input { [5] }
-- output { [5] }
def main (xs: *[]i32): []i32 =
  let n = length xs
  in loop xs = xs for i < n - 1 do
       xs with [i + 1] = xs[i + 1] + xs[i]
