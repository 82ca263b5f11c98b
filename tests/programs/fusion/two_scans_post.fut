-- Two scans with a map after each: each map is the post-lambda of its
-- scan's screma; the second scan reads the first map's result whole
-- prefixes deep, so two scremas stay (as in Futhark).
-- ==
-- input { [1, -4, 2] }
-- output { [1, -3, -1] [2, -6, -2] [2, -4, -6] [7, 1, -1] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) }
-- structure { Screma 2 Stream 0 }

def main (xs: []i32) =
  let sa = scan (+) 0 xs
  let b = map (* 2) sa
  let sb = scan (+) 0 b
  let c = map (+ 5) sb
  in (sa, b, sb, c)
