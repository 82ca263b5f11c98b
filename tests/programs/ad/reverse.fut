-- Reverse mode (`vjp`) through scalars, SOACs, loops and conditionals;
-- every expected value is worked out by hand in the comment above it.

-- f(x, y) = x*y + sin x / y at (2, 3): ∂x = y + cos x / y = 3 + cos 2 / 3
-- = 2.86128..., ∂y = x - sin x / y² = 2 - sin 2 / 9 = 1.89896...
-- ==
-- input { 2.0 3.0 }
-- output { 2.8612843878176193 1.8989669525749242 }
def main (x: f64) (y: f64) = vjp (\(a, b) -> a * b + f64.sin a / b) (x, y) 1

-- The sum of squares has gradient 2x; the product of [1,2,3,4] has
-- gradient the product of the others, [24, 12, 8, 6] (a reduction by
-- `*`, differentiated as the loop it means).
-- ==
-- entry: sums
-- input { [1.0, 2.0, 3.0, 4.0] }
-- output { [2.0, 4.0, 6.0, 8.0] [24.0, 12.0, 8.0, 6.0] }
entry sums (xs: []f64) =
  (vjp (\xs -> f64.sum (map (\x -> x * x) xs)) xs 1, vjp f64.product xs 1)

-- xⁿ by a for loop has derivative 5x⁴ = 80 at 2 (n = 5); a while loop
-- squaring three times computes x⁸, with derivative 8x⁷ = 136.6875 at
-- 1.5; a conditional takes the branch's derivative: 2x at 3, -1 at -3.
-- ==
-- entry: control
-- input { 2.0 1.5 3.0 -3.0 }
-- output { 80.0 136.6875 6.0 -1.0 }
entry control (a: f64) (b: f64) (c: f64) (d: f64) =
  let cond x = if x > 0 then x * x else -x
  in ( vjp (\x -> loop acc = 1 for _i < 5 do acc * x) a 1
     , vjp (\x -> (loop (y, i) = (x, 0) while i < 3 do (y * y, i + 1)).0) b 1
     , vjp cond c 1
     , vjp cond d 1
     )

-- Indexing gives a one-hot adjoint: xs[1]*xs[2] at [1,2,3] has gradient
-- [0, 3, 2]. A free variable of a map sums its rows' adjoints: Σ x·c has
-- ∂xs = c everywhere and ∂c = Σ xs = 6.
-- ==
-- entry: arrays
-- input { [1.0, 2.0, 3.0] 2.0 }
-- output { [0.0, 3.0, 2.0] [2.0, 2.0, 2.0] 6.0 }
entry arrays (xs: []f64) (c: f64) =
  let (dxs, dc) = vjp (\(xs, c) -> f64.sum (map (\x -> x * c) xs)) (xs, c) 1
  in (vjp (\(xs: []f64) -> xs[1] * xs[2]) xs 1, dxs, dc)

-- A prefix sum with cotangent all ones: element i reaches the n - i sums
-- from i on, [3, 2, 1]. An in-place update ys[0] = 2 xs[1] of a copy,
-- summed: 2x₁ + x₁ + x₂, gradient [0, 3, 1].
-- ==
-- entry: scans
-- input { [1.0, 2.0, 3.0] }
-- output { [3.0, 2.0, 1.0] [0.0, 3.0, 1.0] }
entry scans (xs: []f64) =
  ( vjp (\xs -> scan (+) 0 xs) xs (map (const 1) xs)
  , vjp (\(xs: []f64) -> let ys = copy xs with [0] = xs[1] * 2 in f64.sum ys) xs 1
  )

-- reduce_by_index with x ⊙ y = 2xy into [1] from buckets [0, 0], values
-- [2, 1]: r = 2(2·1·2)·1 = 8, so ∂dst = 8 and ∂v = [2·2·v₁, 2·(2·1·v₀)]
-- = [4, 8]; the bucket -1 is ignored. (The `if` of the bucket's bounds
-- check once updated the restored array in place: a wrong [16, 16].)
-- ==
-- entry: hist
-- input { [0i64, 0i64, -1i64] [1f32] [2f32, 1f32, 5f32] }
-- output { [8f32] [4f32, 8f32, 0f32] }
entry hist [n] [m] (is: [n]i64) (dst: [m]f32) (vs: [n]f32) =
  vjp (\(d, v) -> reduce_by_index (copy d) (\x y -> x * y * 2) 0.5 is v) (dst, vs) (replicate m 1)

-- A scatter writing each index twice with the same value: only one write
-- counts, so each x gets adjoint 1, not 2.
-- ==
-- entry: scatter_twice
-- input { [1.0, 2.0, 3.0] }
-- output { [1.0, 1.0, 1.0] }
entry scatter_twice [n] (xs: [n]f64) =
  vjp (\xs -> scatter (replicate n 0) ((0..<n) ++ (0..<n)) (xs ++ xs)) xs (replicate n 1)

-- Forward over reverse: the Hessian-vector product of x³y at (2, 3) in
-- direction (1, 0): ∇ = (3x²y, x³), its derivative along x is (6xy, 3x²)
-- = (36, 12).
-- ==
-- entry: hvp
-- input { 2.0 3.0 }
-- output { 36.0 12.0 }
entry hvp (x: f64) (y: f64) =
  jvp (\(a, b) -> vjp (\(p, q) -> p * p * p * q) (a, b) 1) (x, y) (1, 0)

-- Reverse over forward: the jvp of y ↦ y²x at y = x is 2x², whose
-- derivative is 4x = 8 at 2.
-- ==
-- entry: rof
-- input { 2.0 }
-- output { 8.0 }
entry rof (x: f64) = vjp (\a -> jvp (\y -> y * y * a) a 1) x 1

-- A filter passes the adjoints of the kept rows back to their places;
-- its result's size is computed, so a cotangent of another size is an
-- error at run time.
-- ==
-- entry: filtered
-- input { [1.0, 2.0, 3.0, 0.5] [5.0, 7.0] }
-- output { [0.0, 5.0, 7.0, 0.0] }
-- input { [1.0, 2.0, 3.0] [5.0] }
-- error: the cotangent does not have the shape of the result
entry filtered (xs: []f64) (ys: []f64) = vjp (\zs -> filter (> 1) zs) xs ys
