-- A loop whose body keeps the size of its parameter returns an array of
-- the declared size.
-- ==
-- input { [1, 2] }
-- output { [4, 5] }
def main [n] (xs: [n]i32): [n]i32 = loop acc = xs for i < 3 do map (+1) acc
