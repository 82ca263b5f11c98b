-- An inner SOAC over a size computed per row has no regular parallelism
-- to flatten: one segmap over the rows, in which each thread runs the
-- inner SOACs sequentially.
-- ==
-- input { [3i64, 0i64, 5i64] }
-- output { [3i64, 0i64, 10i64] }
-- structure gpu { SegMap 1 /SegMap/Reduce 1 SegRed 0 }

def main (ks: []i64): []i64 = map (\k -> reduce (+) 0 (iota k)) ks
