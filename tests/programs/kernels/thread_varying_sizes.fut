-- Arrays whose sizes vary between the threads of a kernel: on the GPU,
-- each thread's part of the memory expanded for them is as large as the
-- largest, computed before the kernel (Note [Size bounds] in
-- lowering/src/segop_to_imp/bounds.rs).
-- ==
-- input { [3i64, 0i64, 5i64, 1i64] }
-- output { [9i32, 0i32, 25i32, 1i32] [[0i64, 0i64, 1i64], [0i64, 1i64, 3i64]] }
-- input { empty([0]i64) }
-- output { empty([0]i32) [[0i64, 0i64, 1i64], [0i64, 1i64, 3i64]] }

def main (ns: []i64) =
  -- A scan of n ones ends in n.
  let a = map (\n -> let ys = scan (+) 0 (replicate n 1i32)
                     in if n > 0 then ys[n - 1] * i32.i64 n else 0) ns
  -- Over two dimensions: the sum of 0..k-1 for k = i + j.
  let b = map (\i -> map (\j -> let k = i + j
                                let xs = scan (+) 0 (iota k)
                                in if k > 0 then xs[k - 1] else 0) (iota 3)) (iota 2)
  in (a, b)
