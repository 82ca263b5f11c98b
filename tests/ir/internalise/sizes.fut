entry coerce [n] (m: i64) (xs: [n]i32): [m]i32 = xs :> [m]i32

def dot [n] (xs: [n]f32) (ys: [n]f32): f32 = reduce (+) 0 (map2 (*) xs ys)

entry call (xs: []f32) (ys: []f32): f32 = dot xs ys
