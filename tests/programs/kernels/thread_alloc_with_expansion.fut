-- One kernel with both kinds of per-thread memory: `fixed` has a size the
-- host knows (m), so it stays memory expansion (one allocation for all
-- threads, interleaved); the loop's array grows, so the thread allocates
-- it (Note [Thread allocations] in lowering/src/segop_to_imp/mod.rs).
-- (The trip count k is an input, so that LLVM cannot unroll the loop and
-- compute the sums without the thread's memory.)
-- ==
-- input { 3i64 2i64 [1i64, 2i64, 0i64] }
-- output { [13i64, 22i64, 4i64] }
-- input { 3i64 3i64 [1i64] }
-- output { [21i64] }
-- input { 1i64 2i64 [4i64] }
-- output { [20i64] }

def main (m: i64) (k: i64) (xs: []i64) : []i64 =
  map (\x -> let fixed = map (\j -> x * j) (iota m)
             let grown = loop ys = [x] for _i < k do ys ++ ys
             in reduce (+) 0 (reverse fixed) + fixed[m - 1]
                + reduce (+) 0 grown + length grown) xs
