-- Arrays made by GPU threads whose sizes vary between threads and come
-- from more than scalar ops on the thread's indices: each size's bound
-- is a max-reduction running its slice, which here holds a loop, a
-- nested SOAC with a scalar result, a redomap, an `if`, and the length
-- of an array the thread made (Note [Size bounds] in
-- lowering/src/segop_to_imp/bounds.rs). The arrays are scans, so that
-- each is made, not computed row by row.
-- ==
-- input { [[1i64, 2i64, 3i64], [0i64, 0i64, 0i64], [4i64, 1i64, 0i64]] }
-- output { [3i64, 0i64, 3i64] [6i64, 0i64, 5i64] [2i64, 0i64, 1i64] [6i64, 0i64, 5i64] [6i64, 0i64, 4i64] }
-- input { empty([0][2]i64) }
-- output { empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) }

-- The last of a scan of ones: the scan's length.
def count [n] (_: [n]i64) : i64 =
  let ys = scan (+) 0 (replicate n 1i64)
  in if n > 0 then ys[n - 1] else 0

def main [m] [k] (xss: [m][k]i64) =
  -- A loop: the integer square root of the row's sum, rounded up.
  let a = map (\xs -> let s = i64.sum xs
                      let r = loop r = 0 while r * r < s do r + 1
                      in count (iota r))
              xss
  -- A nested SOAC with a scalar result.
  let b = map (\xs -> count (iota (i64.sum xs))) xss
  -- A redomap: the number of odd elements (a map fused into the sum).
  let c = map (\xs -> count (iota (i64.sum (map (\x -> x % 2) xs)))) xss
  -- An `if` holding a loop.
  let d = map (\xs -> let n = if xs[0] > 2
                              then loop acc = 0 for x in xs do acc + x
                              else i64.sum xs
                      in count (iota n))
              xss
  -- The length of an array the thread made, whose size is existential.
  let e = map (\xs -> let ys = filter (> 0) xs
                      let zs = if length ys > 1 then concat ys ys else ys
                      let ws = scan (+) 0 zs
                      in count ws + 0 * length ws)
              xss
  in (a, b, c, d, e)
