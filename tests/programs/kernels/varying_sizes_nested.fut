-- Arrays made inside the regions of a GPU thread's code (a SOAC's
-- lambda, a branch of an `if`, a `for` loop's body) with sizes computed
-- there: the bound is the largest size over the threads and over every
-- run of the region in each (Note [Size bounds] in
-- lowering/src/segop_to_imp/bounds.rs). The last result's size is that
-- of an `if` making arrays of its own, so its bound's reduction makes
-- arrays too, bounded by reductions of their own.
-- ==
-- input { [[1i64, 2i64], [0i64, 3i64], [2i64, 2i64]] }
-- output { [3i64, 3i64, 4i64] [2i64, 0i64, 4i64] [3i64, 6i64, 3i64] [4i64, 2i64, 4i64] }
-- input { empty([0][3]i64) }
-- output { empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) }

-- The last of a scan of ones: the scan's length.
def count [n] (_: [n]i64) : i64 =
  let ys = scan (+) 0 (replicate n 1i64)
  in if n > 0 then ys[n - 1] else 0

def main [m] [k] (xss: [m][k]i64) =
  -- In a map's lambda in the thread: sizes vary between its rows too.
  let a = map (\xs -> i64.sum (map (\x -> count (iota x)) xs)) xss
  -- In a branch of an `if`.
  let b = map (\xs -> if xs[0] > 0 then count (iota (xs[0] * 2)) else 0) xss
  -- In a `for` loop's body, sized by its index.
  let c = map (\xs -> loop acc = 0 for i < xs[1] + 1 do acc + count (iota i)) xss
  -- The size of an `if`'s array result, made in its branches.
  let d = map (\xs -> let ys = if xs[0] > 0 then concat xs xs else copy xs
                      in count (scan (+) 0 ys))
              xss
  in (a, b, c, d)
