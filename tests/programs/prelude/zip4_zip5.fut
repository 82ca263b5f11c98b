-- zip4/unzip4 and zip5/unzip5.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 10] }
-- output { [7, 8] [3, 4] [10, 9] [5, 6] [2, 1] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32)
    : ([n]i32, [n]i32, [n]i32, [n]i32, [n]i32) =
  let (_, _, _, d1) = unzip4 (zip4 a b c d)
  let (a2, b2, c2, _, e2) = unzip5 (zip5 a b c d e)
  in (d1, b2, reverse e2, c2, reverse a2)
