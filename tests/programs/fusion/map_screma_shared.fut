-- A map, a scan of its result and a map of the scan. The first map's
-- result is returned too: it stays a map of its own (rule map-screma
-- takes only a map nothing else reads), and the scan and the second map
-- are one screma.
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 4] [4, 10, 18] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }
-- structure { Screma 2 Map 1 }

def main (xs: []i32) : ([]i32, []i32) =
  let ys = map (+ 1) xs
  let s = scan (+) 0 ys
  in (ys, map (* 2) s)
