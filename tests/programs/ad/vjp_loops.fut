-- `vjp` through loops, by hand. x⁵ by a `for` loop: 5x⁴ = 80 at 2; a
-- `while` loop that triples 2 until it passes 100 runs four times: 81x,
-- so 81; a loop carrying (a, b) -> (b, a + b) three times from (x, 1)
-- ends with b = 2x + 3: 2.
-- ==
-- input { 2.0 }
-- output { 80.0 81.0 2.0 }
def main (x: f64) =
  ( vjp (\a -> loop acc = 1 for _i < 5 do acc * a) x 1
  , vjp (\a -> loop y = a while y < 100 do y * 3) x 1
  , vjp (\a -> (loop (p, q) = (a, 1) for _i < 3 do (q, p + q)).1) x 1 )

-- In-place updates in a loop: ys[i+1] = 2 ys[i] for i < 2 turns
-- [x0, x1, x2] into [x0, 2x0, 4x0]; ones give [7, 0, 0].
-- ==
-- entry: inplace
-- input { [1.0, 2.0, 3.0] }
-- output { [7.0, 0.0, 0.0] }
entry inplace (xs: [3]f64) =
  vjp (\zs -> loop ys = copy zs for i < 2 do ys with [i + 1] = ys[i] * 2) xs [1, 1, 1]
