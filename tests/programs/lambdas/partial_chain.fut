-- A three-argument function applied one argument at a time, and
-- partially applied for `map`.
-- ==
-- input { 1 }
-- output { 123 456 [789, 780] }
def main (a: i32): (i32, i32, []i32) =
  let f3 x y z = x * 100 + y * 10 + z
  let g = f3 a
  let h = g 2
  in (h 3, (f3 4 5) 6, map (f3 7 8) [9, 0])
