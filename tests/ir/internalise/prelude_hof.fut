entry main (xs: []i32): i32 = xs |> map (\x -> x * 2) |> reduce (+) 0

entry all_pos (xs: []i32): bool = all (> 0) xs

entry fold (xs: []f64): f64 = foldl (+) 0 xs
