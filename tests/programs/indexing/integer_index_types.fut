-- An index may be of any integer type (the language reference, `a[i]`);
-- it is converted to i64, so a negative i8 or a u64 above i64's range is
-- out of bounds, not wrapped.
-- ==
-- input { [10, 20, 30] 2i32 1i8 0u16 2u64 } output { 30 20 10 30 [10, 99, 30] }
-- input { [10, 20, 30] 3i32 1i8 0u16 2u64 } error: out of bounds
-- input { [10, 20, 30] 0i32 -1i8 0u16 2u64 } error: out of bounds
-- input { [10, 20, 30] 0i32 0i8 0u16 18446744073709551615u64 } error: out of bounds

entry main (xs: *[]i32) (a: i32) (b: i8) (c: u16) (d: u64) =
  let r = (xs[a], xs[b], xs[c], xs[d])
  let xs[b] = 99
  in (r.0, r.1, r.2, r.3, xs)
