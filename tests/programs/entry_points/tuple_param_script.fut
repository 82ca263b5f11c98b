-- A `script input` that calls an entry point returning a tuple passes
-- its components to an entry point whose parameter is that tuple (as
-- diku-dk's sorts' tests do; Note [Tuple parameters of entry points]).
-- Executables read a tuple parameter as its components too.
-- ==
-- entry: total
-- script input { make 3i64 4i64 } output { 9i64 }

entry make (k: i64) (n: i64) : (i64, []i64) = (k, iota n)

entry total (k: i64, xs: []i64) : i64 = k * 3 + i64.sum xs - 6

-- ==
-- entry: nested
-- input { 1i32 2i32 [3i32, 4i32] } output { 10i32 }

entry nested (a: i32, (b: i32, cs: []i32)) : i32 = a + b + i32.sum cs
