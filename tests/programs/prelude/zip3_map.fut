-- Mapping over a zip3.
-- ==
-- input { [1, 2, 3] [10, 20, 30] [100, 200, 300] }
-- output { [111, 222, 333] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32): [n]i32 =
  map (\(x, y, z) -> x + y + z) (zip3 a b c)
