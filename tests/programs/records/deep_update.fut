-- Nested record update three levels deep, and a whole inner record
-- replaced by an update; the original record is unchanged.
-- ==
-- input { 1 }
-- output { 1 42 3 10 20 1 }
-- input { -7 }
-- output { -7 42 3 10 20 -7 }
def main (x: i32): (i32, i32, i32, i32, i32, i32) =
  let r = {a = {b = {c = x, d = 3}, e = 2}, f = x}
  let r1 = r with a.b.c = 42
  let r2 = r1 with a.b = {c = 10, d = 20}
  in (r1.f, r1.a.b.c, r1.a.b.d, r2.a.b.c, r2.a.b.d, r.a.b.c)
