-- atan2 (the quadrant from both signs), hypot (without overflow in the
-- squares) and copysign (also of a negative zero).
-- ==
-- input { [1.0, -2.0, 0.0] [-1.0, 0.0, 3.0] }
-- output {
--   [2.356194490192345, -1.5707963267948966, 0.0]
--   [1.4142135623730951, 2.0, 3.0]
--   [-1.0, 2.0, 0.0]
--   1.414213562373095e200 13.0f32 -2.0 3.0f32 -1.5707964f32
-- }
def main (ys: []f64) (xs: []f64) =
  ( map2 f64.atan2 ys xs, map2 f64.hypot ys xs, map2 f64.copysign ys xs
  , f64.hypot 1e200 1e200, f32.hypot (-5) 12, f64.copysign 2 (-0.0), f32.copysign (-3) 1
  , f32.atan2 (-1) 0 )
