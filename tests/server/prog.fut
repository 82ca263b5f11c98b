-- The program that the server tests drive (driver/tests/server.rs and
-- client_test.py): scalars and arrays in and out, several results, an
-- entry point that can fail, and opaque values: records (named by a type
-- abbreviation, or by their type), tuples, nested records and a sum type.

entry scale (k: f32) (xs: []f32): []f32 = map (* k) xs

entry total (xs: []f32): f32 = f32.sum xs

entry pick (xs: []i64) (i: i64): i64 = xs[i]

entry row_sums (xss: [][]i32): ([]i32, i64) = (map i32.sum xss, length xss)

entry negate (b: bool) (xs: []u8): (bool, []u8) = (!b, map (255 -) xs)

-- A sum type: its values pass between entry points.
type opt = #some i32 | #none

entry wrap (x: i32): opt = if x > 0 then #some x else #none

entry unwrap (o: opt): i32 = match o case #some x -> x case #none -> -1

-- A record of an array and a scalar, named `rec`.
type~ rec = {a: []i32, b: f32}

entry pack (xs: []i32) (s: f32): rec = {a = xs, b = s}

entry unpack (r: rec): ([]i32, f32) = (map (+ 1) r.a, r.b * 2)

-- A record of a record and a tuple, named by its type.
entry nest (r: rec) (t: (i32, bool)): {inner: {a: []i32, b: f32}, t: (i32, bool)} = {inner = r, t}

entry outer (n: {inner: {a: []i32, b: f32}, t: (i32, bool)}): (i32, f32) =
  (i32.sum n.inner.a + if n.t.1 then n.t.0 else 0, n.inner.b)
