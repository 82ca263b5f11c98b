entry maps (xs: []f32) (ys: []f32): []f32 = map2 (\x y -> x * y + 1) xs ys

entry reduces (xs: []i32): (i32, i32) = (reduce (+) 0 xs, reduce_comm i32.max i32.lowest xs)

entry scans (xs: []i64): []i64 = scan (+) 0 xs

entry filters (xs: []i32): []i32 = filter (\x -> x > 0) xs

entry scatters (dest: *[]f32) (is: []i64) (vs: []f32): []f32 = scatter dest is vs

entry hists (is: []i64) (vs: []i32): []i32 = hist (+) 0 10 is vs
