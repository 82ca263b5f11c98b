-- A function polymorphic in both element type and size.
-- ==
-- input { [1, 2, 3] [true, false] }
-- output { 3i64 2i64 }
def len 't [n] (_: [n]t): i64 = n

def main (xs: []i32) (bs: []bool): (i64, i64) = (len xs, len bs)
