-- ==
-- input { [1i32, 2i32, 3i32] 3i64 }
-- error: bounds
-- input { [1i32, 2i32, 3i32] -1i64 }
-- error: bounds
-- input { [1i32, 2i32, 3i32] 1i64 }
def main (xs: []i32) (i: i64) = (xs[i], map (\x -> xs[i] / x) xs, xs[i:], (xs :> [3]i32))

-- ==
-- entry: divzero
-- input { [1i32, 0i32] }
-- error: zero
entry divzero (xs: []i32) = map (\x -> 10 / x) xs

-- ==
-- entry: coerce
-- input { [1i32, 0i32] [1i32] }
-- error: size
-- input { [1i32, 0i32] [1i32, 2i32] }
entry coerce (xs: []i32) (ys: []i32) = map2 (+) xs ys

-- ==
-- entry: asserts
-- input { 5i32 }
-- error: assert
-- input { -5i32 }
entry asserts (x: i32) = assert (x < 0) (x * 2)

-- ==
-- entry: ranges
-- input { 1i64 5i64 }
-- input { 5i64 1i64 }
-- error: range
entry ranges (a: i64) (b: i64) = (a..<b, a..b, a..(a+2)...b)

-- ==
-- entry: unflat
-- input { [1i32, 2i32, 3i32, 4i32] 2i64 }
-- input { [1i32, 2i32, 3i32, 4i32] 3i64 }
-- error: size
entry unflat (xs: []i32) (n: i64) = unflatten (xs :> [n*2]i32)

-- ==
-- entry: splits
-- input { [1i32, 2i32, 3i32, 4i32] 1i64 }
-- input { [1i32, 2i32, 3i32, 4i32] 5i64 }
-- error: size
entry splits [k] (xs: [k]i32) (i: i64) = split (xs :> [i+(k-i)]i32)
