-- map preserves the size of a filtered array, so zipping them is well-typed.
-- ==
-- input { [1, -2, 3] }
-- output { [1, 3] [2, 6] }
def main (xs: []i32): ([]i32, []i32) =
  let a = filter (>0) xs
  let b = map (*2) a
  in unzip (zip a b)
