-- Forward pipe chains.
-- ==
-- input { [1, 2, 3, 4] }
-- output { 20 }
-- input { empty([0]i32) }
-- output { 0 }
def main (xs: []i32): i32 =
  xs |> map (*2) |> reduce (+) 0
