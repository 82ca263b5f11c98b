-- The #[sequential] attribute on a map.
-- ==
-- input { [1, 2, 3] }
-- output { [1, 4, 9] }
def main (xs: []i32): []i32 = #[sequential] map (\x -> x * x) xs
