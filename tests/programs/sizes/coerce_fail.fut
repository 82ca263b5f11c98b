-- A size coercion that fails at run time.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 2, 3] }
-- input { [1, -2, 3] }
-- error: size
def main [n] (xs: [n]i32): [n]i32 = filter (>0) xs :> [n]i32
