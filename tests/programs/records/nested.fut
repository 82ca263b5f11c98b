-- Nested records: access and update of a nested field.
-- ==
-- input { 1 2 3 }
-- output { 1 99 3 2 }
def main (a: i32) (b: i32) (c: i32): (i32, i32, i32, i32) =
  let r = {outer = a, inner = {p = b, q = c}}
  let r2 = r with inner.p = 99
  in (r2.outer, r2.inner.p, r2.inner.q, r.inner.p)
