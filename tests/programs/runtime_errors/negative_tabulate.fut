-- `tabulate_2d n m` checks both sizes, even when the other is 0 and no
-- element is computed.
-- ==
-- input { 2i64 1i64 }
-- output { [[0i64], [1i64]] }
-- input { 0i64 -1i64 }
-- error: Range 0..1..<-1 is invalid
-- input { -1i64 0i64 }
-- error: Range 0..1..<-1 is invalid
def main (n: i64) (m: i64): [][]i64 = tabulate_2d n m (\i j -> i + j)
