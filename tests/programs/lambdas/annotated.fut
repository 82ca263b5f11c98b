-- Lambdas with parameter and return type annotations.
-- ==
-- input { [1.5f32, 2.0f32] }
-- output { [3.0f32, 4.0f32] }
def main (xs: []f32): []f32 = map (\(x: f32): f32 -> x * 2) xs
