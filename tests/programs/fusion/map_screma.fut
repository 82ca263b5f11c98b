-- A map, a scan of its result and a map of the scan: one screma, the
-- first map its pre-lambda, the second its post-lambda.
-- ==
-- input { [1, 2, 3] }
-- output { [4, 10, 18] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Screma 1 }

def main (xs: []i32) : []i32 =
  let s = scan (+) 0 (map (+ 1) xs)
  in map (* 2) s
