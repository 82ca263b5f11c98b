-- `jvp` through loops. A `for` loop computing xⁿ has tangent n·xⁿ⁻¹ (12
-- at x = 2, n = 3); a `while` loop squaring three times computes x⁸, with
-- tangent 8x⁷ = 136.6875 at 1.5.
-- ==
-- input { 2.0 3i64 }
-- output { 12.0 136.6875 }
def main (x: f64) (n: i64) =
  ( jvp (\a -> loop acc = 1 for _i < n do acc * a) x 1
  , jvp (\a -> (loop (y, i) = (a, 0) while i < 3 do (y * y, i + 1)).0) 1.5 1
  )

-- Newton's iteration for sqrt a converges, and so does its tangent, to
-- 1/(2 sqrt a) = 0.25 at a = 4.
-- ==
-- entry: newton
-- input { 4f32 }
-- output { 2f32 0.25f32 }
entry newton (a: f32) = jvp2 (\b -> loop y = b for _i < 20 do (y + b / y) / 2) a 1

-- A loop updating an array in place: ys[i] = x·i, tangents [0, 1, 2].
-- ==
-- entry: inplace
-- input { 2f32 }
-- output { [0f32, 1f32, 2f32] }
entry inplace (x: f32) =
  jvp (\a -> loop ys = replicate 3 a for i < 3 do ys with [i] = ys[i] * f32.i64 i) x 1
