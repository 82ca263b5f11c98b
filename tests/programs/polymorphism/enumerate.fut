-- Size- and type-polymorphic functions producing arrays of tuples, used
-- at a row type (so the tuples hold arrays) and at bool.
-- ==
-- input { [[1, 2], [3, 4]] [true, false, true] }
-- output { [3, 4] true 1i64 }
def enumerate 't [n] (xs: [n]t): [n](i64, t) = zip (iota n) xs

def last_of 't [n] (xs: [n](i64, t)): t = xs[n - 1].1

def main (m: [][2]i32) (bs: []bool): ([2]i32, bool, i64) =
  (last_of (enumerate m), last_of (enumerate bs), (enumerate bs)[1].0)
