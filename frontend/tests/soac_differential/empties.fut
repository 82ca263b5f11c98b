-- ==
-- input { empty([0][3]i32) 3i64 }
-- input { [[1i32, 2i32, 3i32]] 0i64 }
def main (m: [][]i32) (k: i64) =
  (map (map (+1)) m, transpose m, map (\r -> reduce (+) 0 r) m, reduce (map2 (+)) (replicate 3 0) (map (take 3) m),
   filter (\r -> r[0] > 5) m, iota k, replicate k [1i32, 2i32], replicate 2 (replicate k 0i32), map (\_ -> replicate k 1i32) m,
   flatten m, scan (+) 0 (flatten m), map (\r -> filter (>1) r) (filter (\_ -> false) m), m[0:0], m[:, 0:0], tabulate k (\i -> [i, i]),
   map (\_ -> iota k) (iota 0), unflatten (replicate 0 1i32 :> [k*0]i32))
