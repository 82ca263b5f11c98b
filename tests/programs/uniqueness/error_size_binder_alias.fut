-- What a size binder binds aliases its value: consuming the value's
-- array then using the binding is an error.
-- ==
-- error: Using "xs", which aliases "zs", but "zs" was consumed

def main (zs: *[]i32) : []i32 =
  let [n] (xs: [n]i32) = zs
  let zs[0] = i32.i64 n
  in xs
