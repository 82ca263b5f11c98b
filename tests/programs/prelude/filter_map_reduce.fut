-- A filter-map-reduce pipeline.
-- ==
-- input { [1, 2, 3, 4, 5, 6] }
-- output { 56 }
def main (xs: []i32): i32 =
  xs |> filter (\x -> x % 2 == 0) |> map (\x -> x * x) |> reduce (+) 0
