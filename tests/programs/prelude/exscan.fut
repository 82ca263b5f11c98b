-- Exclusive scans: element `i` combines the elements before it, the
-- first is the neutral element. Also with a non-commutative operator
-- (composing `x -> a*x + b`) on pairs.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [0, 1, 3, 6] [1, 1, 2, 6] [-2147483648, 1, 2, 3] }
-- input { [5] }
-- output { [0] [1] [-2147483648] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) }
def main (xs: []i32): ([]i32, []i32, []i32) =
  (exscan (+) 0 xs, exscan (*) 1 xs, exscan i32.max i32.lowest xs)

-- ==
-- entry: affine
-- input { [2, 3, 1] [1, 0, 5] }
-- output { [1, 2, 6] [0, 1, 3] }
entry affine [n] (as: [n]i32) (bs: [n]i32): ([n]i32, [n]i32) =
  let compose (a1, b1) (a2, b2) = (a1 * a2, b1 * a2 + b2)
  in unzip (exscan compose (1, 0) (zip as bs))
