-- Record patterns with type annotations: on the whole pattern, on a
-- field's pattern, in function parameters and in lambdas.
-- ==
-- input { 3 2.5f32 }
-- output { 3.0f32 5.5f32 7i64 9 }
-- input { -2 0.0f32 }
-- output { -2.0f32 -2.0f32 7i64 -6 }
def scale ({k, flag}: {k: i64, flag: bool}): i64 = if flag then k * 2 + 1 else k

def main (x: i32) (y: f32): (f32, f32, i64, i32) =
  let {a = (a: i32), b = (b: f32)} = {a = x, b = y}
  let s = map (\({p, q}: {p: i32, q: i32}) -> p * q) [{p = x, q = 3}]
  in (f32.i32 a, f32.i32 a + b, scale {k = 3, flag = true}, s[0])
