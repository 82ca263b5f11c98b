-- Functions returning closures that capture arrays, partial application
-- of user functions, and operator sections given to user higher-order
-- functions.
-- ==
-- input { [1, 2, 3] }
-- output { 5 94 123 [1, 3, 5] }
def adder (xs: []i32): i64 -> i32 = \i -> xs[i] + i32.i64 i

def fold_with (f: i32 -> i32 -> i32) (z: i32) (xs: []i32): i32 = foldl f z xs

def main (xs: []i32): (i32, i32, i32, []i32) =
  let g = adder xs
  let h = fold_with (-) 100
  let k = fold_with (\a b -> a * 10 + b) 0
  in (g 2, h xs, k xs, map (adder xs) (iota 3))
