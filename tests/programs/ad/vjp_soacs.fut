-- `vjp` through the SOACs, by hand. `map` of x²: 2x.
-- ==
-- input { [1.0, 2.0, 3.0] }
-- output { [2.0, 4.0, 6.0] }
def main (xs: []f64) = vjp (map (\x -> x * x)) xs (map (const 1) xs)

-- Reductions: Σx² gives 2x; the product 6 gives 6/x = [6, 3, 2]; `max`
-- gives 1 at the maximum and 0 elsewhere; a dot product gives each side
-- the other.
-- ==
-- entry: reductions
-- input { [1.0, 2.0, 3.0] }
-- output { [2.0, 4.0, 6.0] [6.0, 3.0, 2.0] [0.0, 0.0, 1.0] [3.0, 2.0, 1.0] [1.0, 2.0, 3.0] }
entry reductions (xs: []f64) =
  let (da, db) = vjp (\(a, b) -> f64.sum (map2 (*) a b)) (xs, reverse xs) 1
  in ( vjp (\ys -> f64.sum (map (\y -> y * y) ys)) xs 1
     , vjp f64.product xs 1
     , vjp (reduce f64.max (-f64.inf)) xs 1
     , da, db )

-- Scans: each x_i feeds the outputs i.. of a `+` scan, so ones give
-- [3, 2, 1]; the prefix products (x0, x0x1, x0x1x2) at (1, 2, 3) give
-- (1 + x1 + x1x2, x0 + x0x2, x0x1) = (9, 4, 2).
-- ==
-- entry: scans
-- input { [1f32, 2f32, 3f32] }
-- output { [3f32, 2f32, 1f32] [9f32, 4f32, 2f32] }
entry scans (xs: []f32) =
  (vjp (scan (+) 0) xs [1, 1, 1], vjp (scan (*) 1) xs [1, 1, 1])

-- Histograms: with `+`, each value gets the cotangent of its bin:
-- bins [0, 1, 0] and cotangents [1, 10] give [1, 10, 1]; with `*`,
-- bin 0 holds x0·x2 = 2·4 and bin 1 x1, so [4, 1, 2]; `hist` as
-- `reduce_by_index`.
-- ==
-- entry: histograms
-- input { [2.0, 3.0, 4.0] }
-- output { [1.0, 10.0, 1.0] [4.0, 1.0, 2.0] [1.0, 10.0, 1.0] }
entry histograms (xs: [3]f64) =
  ( vjp (\vs -> reduce_by_index (replicate 2 0) (+) 0 [0, 1, 0] vs) xs [1, 10]
  , vjp (\vs -> reduce_by_index (replicate 2 1) (*) 1 [0, 1, 0] vs) xs [1, 1]
  , vjp (\vs -> hist (+) 0 2 [0, 1, 0] vs) xs [1, 10] )

-- `scatter` overwrites: the destination's adjoint is zero where it was
-- written, the values get the cotangents of the places they went to.
-- `filter` passes adjoints to the elements it keeps.
-- ==
-- entry: scatters
-- input { [1.0, 1.0, 1.0, 1.0] [5.0, 6.0] }
-- output { [0.0, 2.0, 0.0, 4.0] [1.0, 3.0] [1.0, 0.0, 1.0] }
entry scatters (dest: [4]f64) (vs: [2]f64) =
  let (dd, dv) = vjp (\(d, v) -> scatter (copy d) [0, 2] v) (dest, vs) [1, 2, 3, 4]
  in (dd, dv, vjp (\ys -> f64.sum (filter (> 0) ys)) [1, -2, 3] 1)

-- A 2×2 matrix-vector product m·v: the adjoint of m is the outer
-- product of the cotangent (1, 2) and v = (3, 4).
-- ==
-- entry: matvec
-- input { [[1.0, 2.0], [3.0, 4.0]] [3.0, 4.0] }
-- output { [[3.0, 4.0], [6.0, 8.0]] }
entry matvec (m: [2][2]f64) (v: [2]f64) =
  vjp (\a -> map (\r -> f64.sum (map2 (*) r v)) a) m [1, 2]
