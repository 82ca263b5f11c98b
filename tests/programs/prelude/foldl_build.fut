-- foldl with an accumulator of a different type than the elements.
-- ==
-- input { [1, 2, 3] }
-- output { 123i64 }
def main (xs: []i32): i64 =
  foldl (\acc x -> acc * 10 + i64.i32 x) 0 xs
