-- A recursive function that makes arrays, called in a map: it stays a
-- call (it cannot be inlined), and on the GPU its device version
-- allocates its arrays in the thread, on the device heap (Note [Thread
-- allocations] in lowering/src/segop_to_imp/mod.rs). tri n = 1 + ... + n
-- is the last prefix sum of 1..n; the sum of tri 1 .. tri n is
-- n(n+1)(n+2)/6.
-- ==
-- input { [0i64, 1i64, 3i64, 5i64, 2i64] }
-- output { [0i64, 1i64, 10i64, 35i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

def tetra (n: i64) : i64 =
  if n <= 0 then 0
  else let prefix = scan (+) 0 (map (+ 1) (iota n))
       in prefix[n - 1] + tetra (n - 1)

def main (ns: []i64) : []i64 = map tetra ns
