-- `vjp` of `reduce_by_index` and `hist` by `min`, `max` and `*`, with
-- the parallel rules of Note [Scan and histogram adjoints], by hand.

-- Buckets [0, 1, 0, 2, 0] of [3, 7, 1, 4, 1] into [5, 5, 5] by `min`:
-- bucket 0 is 1, held by values 2 and 4, of which the first (2) gets its
-- adjoint; bucket 1 keeps the destination's 5; bucket 2 is value 3's 4.
-- By `max` into [2, 2, 9]: values 0 and 1 win their buckets, the
-- destination keeps bucket 2. Cotangent [1, 10, 100].
-- ==
-- entry: extrema
-- input { [5.0, 5.0, 5.0] [2.0, 2.0, 9.0] [3.0, 7.0, 1.0, 4.0, 1.0] }
-- output { [0.0, 10.0, 0.0] [0.0, 0.0, 1.0, 100.0, 0.0] [0.0, 0.0, 100.0] [1.0, 10.0, 0.0, 0.0, 0.0] }
-- structure { Loop 0 }
entry extrema (d1: [3]f64) (d2: [3]f64) (vs: [5]f64) =
  let is = [0, 1, 0, 2, 0]
  let (a, b) = vjp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf is v) (d1, vs) [1, 10, 100]
  let (c, e) = vjp (\(d, v) -> reduce_by_index (copy d) f64.max (-f64.inf) is v) (d2, vs) [1, 10, 100]
  in (a, b, c, e)

-- Out-of-range indices (-1 and 3) are ignored and get no adjoint; `hist`
-- starts from the neutral element; bucket 0 is value 0's 3, not value 4's 2.
-- ==
-- entry: outside
-- input { [3.0, 7.0, 1.0, 4.0, 2.0] }
-- output { [1.0, 10.0, 0.0, 0.0, 0.0] }
entry outside (vs: [5]f64) =
  vjp (\v -> hist f64.max (-f64.inf) 3 [0, 1, -1, 3, 0] v) vs [1, 10, 100]

-- Products: bucket 0 holds 1·2·3, bucket 1 holds 2·0·5 (one zero: only
-- the zero's adjoint, 2·5, is nonzero), bucket 2 holds 3·0·0 (two zeros:
-- no adjoint at all); the value at index -1 is ignored. Cotangent [1, 10,
-- 100]: values [3, 2, 100, 0, 0, 0, 0], destination [6, 0, 0]. With a
-- zero destination in bucket 0, only the destination gets an adjoint.
-- ==
-- entry: products
-- input { [1.0, 2.0, 3.0] [2.0, 3.0, 0.0, 5.0, 0.0, 0.0, 7.0] }
-- output { [6.0, 0.0, 0.0] [3.0, 2.0, 100.0, 0.0, 0.0, 0.0, 0.0] }
-- input { [0.0, 2.0, 3.0] [2.0, 3.0, 0.0, 5.0, 0.0, 0.0, 7.0] }
-- output { [6.0, 0.0, 0.0] [0.0, 0.0, 100.0, 0.0, 0.0, 0.0, 0.0] }
-- structure { Loop 0 }
entry products (d: [3]f64) (vs: [7]f64) =
  let is = [0, 0, 1, 1, 2, 2, -1]
  in vjp (\(d, v) -> reduce_by_index (copy d) (*) 1 is v) (d, vs) [1, 10, 100]

-- Values computed before the histogram (x²) and a destination read
-- after it: the adjoint of d is the product rule's through both uses.
-- d = [2], x = [1, 3]: h = 2·1·9 = 18, result h + d[0] = 20;
-- ∂/∂d0 = 9 + 1, ∂/∂x = 18·2/x = [36, 12].
-- ==
-- entry: computed
-- input { [2f32] [1f32, 3f32] }
-- output { [10f32] [36f32, 12f32] }
entry computed (d: [1]f32) (xs: [2]f32) =
  vjp (\(d, xs) -> (reduce_by_index (copy d) (*) 1 [0, 0] (map (\x -> x * x) xs))[0] + d[0]) (d, xs) 1

-- Ties between the destination and a value go to the destination (as
-- Futhark's reducebyindexminmax tests require): into [3, 1] by `max`,
-- values [3, 2, 1] at [0, 0, 1] leave both buckets at the destination's.
-- By `min` into [1, 4]: bucket 0 ties (1), bucket 1 is value 2's 0.5.
-- ==
-- entry: ties
-- input { [3.0, 1.0] [1.0, 4.0] [3.0, 2.0, 1.0] [1.0, 2.0, 0.5] }
-- output { [1.0, 10.0] [0.0, 0.0, 0.0] [1.0, 0.0] [0.0, 0.0, 10.0] }
entry ties (d1: [2]f64) (d2: [2]f64) (v1: [3]f64) (v2: [3]f64) =
  let is = [0, 0, 1]
  let (a, b) = vjp (\(d, v) -> reduce_by_index (copy d) f64.max (-f64.inf) is v) (d1, v1) [1, 10]
  let (c, e) = vjp (\(d, v) -> reduce_by_index (copy d) f64.min f64.inf is v) (d2, v2) [1, 10]
  in (a, b, c, e)
