-- A map of a scan's result and of the array the scan reads: that array
-- is both the pre-lambda's input and passed through it to the
-- post-lambda. The scan reads the array twice (a scan of pairs).
-- ==
-- input { [1, 2, 3] }
-- output { [1, 6, 18] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }
-- structure { Screma 1 }

def main (xs: []i32) : []i32 =
  let (ps, qs) = unzip (scan (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip xs xs))
  in map3 (\p q x -> p * x + q - q) ps qs xs
