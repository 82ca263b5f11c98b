entry element [n] (xs: [n]f32) (i: i64): f32 = xs[i]

entry in_loop [n] (xs: [n]f32): f32 = loop s = 0 for i < n do s + xs[i]

entry in_map [n] (xs: [n]f32): [n]f32 = map (\i -> xs[n - 1 - i]) (iota n)

entry slices [n][m] (a: [n][m]i32) (i: i64): ([]i32, []i32) = (a[i, 1:], a[:, 0])

entry unchecked [n] (xs: [n]f32) (i: i64): f32 = #[unsafe] xs[i]
