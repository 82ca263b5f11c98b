-- `vjp` of `scan` by operators other than `+`, differentiated by the
-- parallel rule of Note [Scan and histogram adjoints] (a scan of affine
-- maps in reverse), with gradients worked out by hand or, for the tuple
-- operators, by exact forward-mode dual numbers outside futmlir.

-- Products with zeros: [2, 0, 3, 0] has prefix products [2, 0, 0, 0];
-- ∂y1/∂x1 = x0 = 2, ∂y2/∂x1 = x0·x2 = 6 and everything through a second
-- zero vanishes, so ones give [1, 8, 0, 0]; with [2, 0, 3, 4] and
-- cotangent [1, 2, 3, 4], x1 gets 2·2 + 3·6 + 4·24 = 118. No division:
-- the rule never divides by an element.
-- ==
-- entry: products
-- input { [2.0, 0.0, 3.0, 0.0] [1.0, 1.0, 1.0, 1.0] }
-- output { [1.0, 8.0, 0.0, 0.0] }
-- input { [2.0, 0.0, 3.0, 4.0] [1.0, 2.0, 3.0, 4.0] }
-- output { [1.0, 118.0, 0.0, 0.0] }
-- input { empty([0]f64) empty([0]f64) }
-- output { empty([0]f64) }
entry products (xs: []f64) (c: []f64) = vjp (scan (*) 1) xs c

-- Running maximum of [1, 3, 2, 5, 4] is [1, 3, 3, 5, 5]: x1 is chosen by
-- outputs 1 and 2 (2 + 3), x3 by 3 and 4 (4 + 5); the running minimum
-- of [3, 1, 2, 0, 5] chooses the same positions.
-- ==
-- entry: extrema
-- input { [1.0, 3.0, 2.0, 5.0, 4.0] [3.0, 1.0, 2.0, 0.0, 5.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [1.0, 5.0, 0.0, 9.0, 0.0] [1.0, 5.0, 0.0, 9.0, 0.0] }
entry extrema (xs: []f64) (ys: []f64) (c: []f64) =
  (vjp (scan f64.max (-f64.inf)) xs c, vjp (scan f64.min f64.inf) ys c)

-- A user lambda, a ⊙ b = a + b + ab = (1+a)(1+b) - 1: y_i = Π(1+x_j) - 1,
-- so at [1, 2, 3] (factors 2, 3, 4) ones give [1+3+12, 2+8, 6].
-- ==
-- entry: lambda
-- input { [1f32, 2f32, 3f32] [1f32, 1f32, 1f32] }
-- output { [16f32, 10f32, 6f32] }
entry lambda (xs: []f32) (c: []f32) = vjp (scan (\a b -> a + b + a * b) 0) xs c

-- Composition of affine maps (a, b) ⊙ (a', b') = (aa', ba' + b'), a
-- pair operator with a 2×2 Jacobian.
-- ==
-- entry: affine
-- input { [1.0, 2.0, 3.0] [1.0, 1.0, 1.0] [1.0, 1.0, 1.0] [1.0, 1.0, 1.0] }
-- output { [9.0, 8.0, 5.0] [9.0, 4.0, 1.0] }
-- input { [2.0, -1.0, 3.0, 1.0] [1.0, 2.0, 0.0, -2.0] [1.0, 2.0, 0.0, 1.0] [3.0, 1.0, 2.0, 1.0] }
-- output { [-4.0, 20.0, 1.0, -3.0] [-7.0, 10.0, 3.0, 1.0] }
entry affine (as: []f64) (bs: []f64) (c: []f64) (d: []f64) =
  vjp (\(as, bs) -> unzip (scan (\(a1, b1) (a2, b2) -> (a1 * a2, b1 * a2 + b2)) (1, 0) (zip as bs)))
      (as, bs) (c, d)

-- Products of 2×2 matrices (a, b, c, d) in row-major order: a tuple
-- operator of four components, so a 4×4 Jacobian per element. Matrices
-- [[1,2],[0,1]], [[2,0],[1,1]], [[1,-1],[1,2]].
-- ==
-- entry: matrices
-- input { [1.0, 2.0, 1.0] [2.0, 0.0, -1.0] [0.0, 1.0, 1.0] [1.0, 1.0, 2.0] }
-- output { [1.0, 0.0, 2.0] [3.0, 3.0, 4.0] [6.0, 3.0, 2.0] [7.0, 9.0, 2.0] }
entry matrices (as: []f64) (bs: []f64) (cs: []f64) (ds: []f64) =
  let mm (a, b, c, d) (e, f, g, h) = (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)
  let f (as, bs, cs, ds) = unzip4 (scan mm (1, 0, 0, 1) (zip4 as bs cs ds))
  in vjp f (as, bs, cs, ds) ([1, 1, 0], [0, 1, 1], [0, 1, 2], [1, 1, 0])

-- An operator on mixed types (a value and its position) keeps the
-- sequential rule: the argmax scan chooses the same elements as `max`.
-- Its two loops (the primal's and the return sweep's) are the program's
-- only ones (`structure` counts every entry): the other scans have none.
-- ==
-- entry: mixed
-- input { [1.0, 3.0, 2.0, 5.0, 4.0] [1.0, 2.0, 3.0, 4.0, 5.0] }
-- output { [1.0, 5.0, 0.0, 9.0, 0.0] }
-- structure { Loop 2 }
entry mixed [n] (xs: [n]f64) (c: [n]f64) =
  let op (x1, i1) (x2, i2) = if x1 >= x2 then (x1, i1) else (x2, i2)
  in vjp (\xs -> (unzip (scan op (-f64.inf, -1i64) (zip xs (iota n)))).0) xs c
