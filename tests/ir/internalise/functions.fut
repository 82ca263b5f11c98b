def scale [n] (k: f32) (xs: [n]f32): [n]f32 = map (* k) xs

entry main [n] (xs: [n]f32): [n]f32 = scale 2 (scale 3 xs)
