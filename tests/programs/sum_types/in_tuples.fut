-- A pair of sum values matched together.
-- ==
-- input { [0, 1, 2, 3] [3, 2, 1, 0] }
-- output { [1, 1, 2, 2] }
type bit = #lo | #hi

def bit_of (x: i32): bit = if x >= 2 then #hi else #lo

def main (xs: []i32) (ys: []i32): []i32 =
  map2 (\x y -> match (bit_of x, bit_of y)
                case (#lo, #lo) -> 0
                case (#lo, #hi) -> 1
                case (#hi, #lo) -> 2
                case (#hi, #hi) -> 3) xs ys
