-- Reductions beside a scan with a post-lambda join it: Futhark's screma
-- holds scans and reductions. One reduction comes before the scan in the
-- program, one after.
-- ==
-- input { [1, 2, 3] }
-- output { 6 [2, 4, 7] 3 }
-- input { [4, -1, 0, 2] }
-- output { 0 [5, 4, 4, 6] 4 }
-- input { empty([0]i32) }
-- output { 1 empty([0]i32) -2147483648 }
-- structure { Screma 1 }

def main (xs: []i32) : (i32, []i32, i32) =
  let p = reduce (*) 1 xs
  let ps = scan (+) 0 xs
  let m = reduce i32.max i32.lowest xs
  in (p, map (+ 1) ps, m)
