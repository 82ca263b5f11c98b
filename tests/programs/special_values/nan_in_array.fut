-- NaN inside arrays.
-- ==
-- input { [1.0f32, 0.0f32, -2.0f32] }
-- output { [1.0f32, f32.nan, -0.5f32] }
def main (xs: []f32): []f32 = map (\x -> if x == 0 then f32.nan else 1 / x) xs
