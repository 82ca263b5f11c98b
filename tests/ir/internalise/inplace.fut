entry update [n] (xs: *[n]i32) (i: i64) (v: i32): [n]i32 = xs with [i] = v

entry let_update [n] (xs: *[n]i32): [n]i32 =
  let xs[0] = 42
  in xs

entry rows [n][m] (a: *[n][m]f32) (r: [m]f32): [n][m]f32 = a with [0] = r

entry slice (xs: *[]i32) (ys: []i32): []i32 = xs with [1:3] = ys
