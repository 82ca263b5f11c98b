-- Indexing a concatenation picks the array the index falls in, also
-- across an inner dimension (`map2 concat` is one concatenation along it),
-- and for more than two arrays: no concatenation is left.
-- ==
-- input { [[1,1],[2,2],[3,3]] [[4],[5],[6]] [7,8,9] 1i64 2i64 7i64 }
-- output { 5 8 }
-- input { [[1,1],[2,2],[3,3]] [[4],[5],[6]] [7,8,9] 2i64 0i64 10i64 }
-- output { 3 5 }
-- input { [[1,1],[2,2],[3,3]] [[4],[5],[6]] [7,8,9] 0i64 3i64 8i64 }
-- error: out of bounds
-- structure { Concat 0 }

def main [n] [m] (as: [][n]i32) (bs: [][m]i32) (c: []i32) (i: i64) (j: i64) (k: i64) =
  let cs = map2 concat as bs
  let flat = flatten as ++ c ++ flatten bs
  in (cs[i, j], flat[k])
