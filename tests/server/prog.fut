-- The program that the server tests drive (driver/tests/server.rs and
-- client_test.py): scalars and arrays in and out, several results, and
-- an entry point that can fail.

entry scale (k: f32) (xs: []f32): []f32 = map (* k) xs

entry total (xs: []f32): f32 = f32.sum xs

entry pick (xs: []i64) (i: i64): i64 = xs[i]

entry row_sums (xss: [][]i32): ([]i32, i64) = (map i32.sum xss, length xss)

entry negate (b: bool) (xs: []u8): (bool, []u8) = (!b, map (255 -) xs)

-- An opaque result: listed, but not callable in the server yet.
type opt = #some i32 | #none

entry wrap (x: i32): opt = if x > 0 then #some x else #none
