-- A range of i64 values used as indices.
-- ==
-- input { [10, 20, 30, 40, 50] }
-- output { [20, 30, 40] }
def main (xs: []i32): []i32 = map (\i -> xs[i]) (1..<4)
