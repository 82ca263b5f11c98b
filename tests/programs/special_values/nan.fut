-- Producing NaN.
-- ==
-- input { 0.0f32 }
-- output { f32.nan }
def main (x: f32): f32 = x / x
