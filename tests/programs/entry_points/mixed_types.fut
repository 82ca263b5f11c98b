-- Entry points with bool, f64 and i64 parameters.
-- ==
-- entry: choose
-- input { true 1.5 2i64 }
-- output { 3.0 }
-- input { false 1.5 2i64 }
-- output { 2.0 }
entry choose (b: bool) (x: f64) (n: i64): f64 =
  if b then x * f64.i64 n else f64.i64 n
