-- `script input`: entry points applied to literals, to `let`-bound
-- results of other entry points, and to the files `$loaddata` and
-- `$loadbytes` read (relative to this file). A CUDA bundle runs the
-- script where the executable runs (driver/src/bundle.rs); the driver's
-- test tests/bundle.rs checks a CPU bundle of this program.
-- ==
-- entry: total
-- script input { let xs = $loaddata "data/numbers.in" in (scale 2i32 xs, 3i32) }
-- output { 113 }
-- script input { let (k, xs) = pair 5i32 in (xs, k) }
-- output { 15 }
-- script input { (scale 1i32 (iota_i32 4i64), 7i32) }
-- auto output

-- ==
-- entry: byte_count
-- script input { $loadbytes "data/numbers.in" }
-- output { 32i64 }

entry scale (k: i32) (xs: []i32) : []i32 = map (* k) xs

entry iota_i32 (n: i64) : []i32 = map i32.i64 (iota n)

entry pair (k: i32) : (i32, []i32) = (k, replicate 2 k)

entry total (xs: []i32) (k: i32) : i32 = i32.sum xs + k

entry byte_count (bs: []u8) : i64 = length bs
