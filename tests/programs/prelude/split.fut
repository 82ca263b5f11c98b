-- split takes its sizes from the argument's type: `[n+m]t` gives
-- `([n]t, [m]t)`.
-- ==
-- input { [1, 2, 3, 4, 5] 2i64 }
-- output { [1, 2] [3, 4, 5] }
-- input { [1, 2, 3] 0i64 }
-- output { empty([0]i32) [1, 2, 3] }
-- input { [1, 2, 3] 3i64 }
-- output { [1, 2, 3] empty([0]i32) }
def main [k] (xs: [k]i32) (i: i64): ([i]i32, [k-i]i32) = split (xs :> [i+(k-i)]i32)
