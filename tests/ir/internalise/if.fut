entry same_size [n] (b: bool) (xs: [n]i32): [n]i32 =
  if b then xs else map (+1) xs

entry different_sizes (b: bool) (xs: []i32): []i32 =
  if b then xs else filter (> 0) xs
