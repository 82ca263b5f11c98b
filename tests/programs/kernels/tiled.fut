-- Matmul-like segmented reductions, which `segop-tile` tiles on the GPU
-- (Note [Block tiling]): sizes that leave partial blocks and a partial
-- last step of the reduction, inputs read through transposed views,
-- integers (exact), a distance (k-means), a batch, a reduction of a
-- pair, a non-commutative operator, and a body that also reads an array
-- along the reduction only. The expected outputs come from the
-- interpreter, which does not tile.
-- ==
-- entry: matmul_i32
-- random input { [130][53]i32 [53][1100]i32 }
-- auto output
-- random input { [256][16]i32 [16][512]i32 }
-- auto output
-- random input { [37][53]i32 [53][29]i32 }
-- auto output
-- random input { [3][1]i32 [1][200]i32 }
-- auto output
-- random input { [0][4]i32 [4][20]i32 }
-- auto output
-- random input { [20][0]i32 [0][20]i32 }
-- auto output

def matmul_by 't [n][k][m] (add: t -> t -> t) (mul: t -> t -> t) (zero: t) (a: [n][k]t) (b: [k][m]t) : [n][m]t =
  map (\r -> map (\c -> reduce add zero (map2 mul r c)) (transpose b)) a

entry matmul_i32 [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  matmul_by (+) (*) 0 a b

-- ==
-- entry: matmul_f32
-- random input { [200][33]f32 [33][700]f32 }
-- auto output

entry matmul_f32 [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  matmul_by (+) (*) 0 a b

-- `a` given transposed: the rows' tiles read along its first dimension.
-- ==
-- entry: matmul_at
-- random input { [45][266]i32 [45][600]i32 }
-- auto output

entry matmul_at [n][k][m] (at: [k][n]i32) (b: [k][m]i32) : [n][m]i32 =
  matmul_by (+) (*) 0 (transpose at) b

-- Squared distances of points to centres, as k-means computes them.
-- ==
-- entry: distances
-- random input { [2000][16]i32 [32][16]i32 }
-- auto output

entry distances [n][d][k] (ps: [n][d]i32) (cs: [k][d]i32) : [n][k]i32 =
  map (\p -> map (\c -> i32.sum (map2 (\x y -> (x - y) * (x - y)) p c)) cs) ps

-- ==
-- entry: batched
-- random input { [4][70][17]i32 [4][17][300]i32 }
-- auto output

entry batched [b][n][k][m] (as: [b][n][k]i32) (bs: [b][k][m]i32) : [b][n][m]i32 =
  map2 (matmul_by (+) (*) 0) as bs

-- A reduction of a pair: the sum of products and the largest product.
-- ==
-- entry: pairs
-- random input { [200][25]i32 [25][600]i32 }
-- auto output

entry pairs [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : ([n][m]i32, [n][m]i32) =
  let f r c =
    reduce (\(s, x) (t, y) -> (s + t, i32.max x y)) (0, i32.lowest) (map2 (\x y -> (x * y, x * y)) r c)
  in unzip (map unzip (map (\r -> map (f r) (transpose b)) a))

-- A non-commutative operator (2x2 integer matrix products, kept in
-- order), and a body that reads `w` along the reduction only.
-- ==
-- entry: ordered
-- random input { [200][19]i32 [19][600]i32 [19]i32 }
-- auto output

entry ordered [n][k][m] (a: [n][k]i32) (b: [k][m]i32) (w: [k]i32) : [n][m]i32 =
  let op (a0: i32, a1: i32, a2: i32, a3: i32) (b0: i32, b1: i32, b2: i32, b3: i32) =
    (a0 * b0 + a1 * b2, a0 * b1 + a1 * b3, a2 * b0 + a3 * b2, a2 * b1 + a3 * b3)
  let f r c =
    let (x, y, _, _) =
      reduce op (1, 0, 0, 1) (map3 (\x y v -> (x % 3, y % 3, v % 2, 1)) r c w)
    in x + y
  in map (\r -> map (f r) (transpose b)) a
