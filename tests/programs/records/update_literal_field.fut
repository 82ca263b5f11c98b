-- A record update may change a field's type also where the field's type
-- is not known yet when the update is checked (a literal's): the field
-- takes the new value's type, and the literal its default.
-- ==
-- input { 4 }
-- output { [true] 4 3i64 }

def main (x: i32) : ([]bool, i32, i64) =
  let r = {a = [1, 2], b = x, c = 3}
  let r2 = r with a = [true]
  let r3 = r2 with c = 3i64
  in (r2.a, r2.b, r3.c)
