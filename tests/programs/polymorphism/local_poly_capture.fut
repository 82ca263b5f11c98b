-- A local polymorphic function capturing a variable, used at two types.
-- ==
-- input { 2 [0.5f32, 1.5f32] }
-- output { 2 [2, 2] [0.5f32, 1.5f32] }
def main [n] (k: i32) (xs: [n]f32): (i32, [n]i32, [n]f32) =
  let tag 'a (x: a): (i32, a) = (k, x)
  let t1 = tag true
  let (ks, ys) = unzip (map tag xs)
  in (if t1.1 then t1.0 else 0, ks, ys)
