-- partition keeps each class in its original order, whatever the rows
-- are: empty input, one class only, array rows, several arrays (a zip),
-- three classes (partition2), and an input of many rows.
-- ==
-- entry: evens
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }
-- input { [2, 4, 6] }
-- output { [2, 4, 6] empty([0]i32) }
-- input { [1, 3, 5] }
-- output { empty([0]i32) [1, 3, 5] }
-- input { [5, 2, 7, 8, 8, 1, 0, -3, -4] }
-- output { [2, 8, 8, 0, -4] [5, 7, 1, -3] }

-- ==
-- entry: rows
-- input { [[1, 2], [-3, 1], [0, 0], [4, -1]] }
-- output { [[1, 2], [4, -1]] [[-3, 1], [0, 0]] }
-- input { empty([0][2]i32) }
-- output { empty([0][2]i32) empty([0][2]i32) }
-- input { [[7, 7, 7]] }
-- output { [[7, 7, 7]] empty([0][3]i32) }

-- ==
-- entry: pairs
-- input { [3, -1, 4, -1, -5] [1f32, 2f32, 3f32, 4f32, 5f32] }
-- output { [-1, -1, -5] [2f32, 4f32, 5f32] [3, 4] [1f32, 3f32] }

-- ==
-- entry: three
-- input { [0, 1, 2, 3, 4, 5, 6, 7] }
-- output { [0, 3, 6] [1, 4, 7] [2, 5] }
-- input { [2, 5, 8] }
-- output { empty([0]i32) empty([0]i32) [2, 5, 8] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) }

-- ==
-- entry: many
-- input { 7i64 }
-- output { 1i64 6i64 0i64 67i64 }
-- input { 100000i64 }
-- output { 14286i64 85714i64 6802721075510i64 244891530654082i64 }

entry evens (xs: []i32): ([]i32, []i32) = partition (\x -> x % 2 == 0) xs

entry rows [m] (xss: [][m]i32): ([][m]i32, [][m]i32) = partition (\r -> i32.sum r > 0) xss

entry pairs (xs: []i32) (ys: []f32): ([]i32, []f32, []i32, []f32) =
  let (neg, rest) = partition (\(x, _) -> x < 0) (zip xs ys)
  let (a, b) = unzip neg
  let (c, d) = unzip rest
  in (a, b, c, d)

entry three (xs: []i32): ([]i32, []i32, []i32) =
  partition2 (\x -> x % 3 == 0) (\x -> x % 3 == 1) xs

-- The sums of i * row i check the order of the rows.
entry many (n: i64): (i64, i64, i64, i64) =
  let (a, b) = partition (\x -> x % 7 == 3) (iota n)
  let weighted xs = i64.sum (map2 (*) (indices xs) xs)
  in (length a, length b, weighted a, weighted b)
