-- A record update may change the type of the field, when the record's
-- type is known; a literal still takes the field's type.
-- ==
-- input { 3 }
-- output { true 2.0f32 1.0f32 [true] 1i64 }
-- input { -3 }
-- output { false 2.0f32 1.0f32 [true] 1i64 }
def main (x: i32) =
  let r = {a = x, b = 2.0f32}
  let r2 = r with a = x > 0
  let r3 = r with b = 1
  let n = {p = {q = 1i64, s = [1i32, 2]}, t = 'c'}
  let n2 = n with p.s = [true]
  in (r2.a, r2.b, r3.b, n2.p.s, n2.p.q)
