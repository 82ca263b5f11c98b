-- A loop counter of type i64 used to index an array.
-- ==
-- input { [5, 6, 7] }
-- output { 20 }
def main (xs: []i32): i32 =
  loop acc = 0 for i < length xs do acc + xs[i] * i32.i64 i
