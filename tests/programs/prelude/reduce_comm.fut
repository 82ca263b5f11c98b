-- reduce_comm with a commutative operator.
-- ==
-- input { [2, 9, 4] }
-- output { 15 9 }
def main (xs: []i32): (i32, i32) =
  (reduce_comm (+) 0 xs, reduce_comm i32.max i32.lowest xs)
