-- A record update of a field whose type is not known yet (a literal's)
-- unifies the field's type with the new value's: the literal takes it.
-- ==
-- input { 4 }
-- output { 4 3i64 }

def main (x: i32) : (i32, i64) =
  let r = {b = x, c = 3}
  let r3 = r with c = 3i64
  in (r3.b, r3.c)
