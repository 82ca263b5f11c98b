-- A loop in a map whose array doubles each iteration: no buffers of a
-- fixed size can carry it (Note [Loops in kernels]), so on the GPU the
-- thread allocates each iteration's array itself and frees the previous
-- one (Note [Thread allocations] in lowering/src/segop_to_imp/mod.rs).
-- After k iterations from [x]: 2^k elements summing to 2^k x plus
-- 2^(k-1) k(k-1)/2 (iteration i adds i to each of 2^i elements).
-- ==
-- input { [1i64, 0i64, 5i64] 3i64 }
-- output { [28i64, 20i64, 60i64] }
-- input { [7i64] 0i64 }
-- output { [8i64] }
-- input { empty([0]i64) 2i64 }
-- output { empty([0]i64) }

def main (xs: []i64) (k: i64) : []i64 =
  map (\x -> let ys = loop ys = [x] for i < k do ys ++ map (+ i) ys
             in reduce (+) 0 ys + length ys) xs
