-- Sections of qualified operators: `(f64./ 2)` is `\x -> x f64./ 2` (not
-- `(f64./) 2`, which divides 2 by x), `(2 f64./)` is `\y -> 2 f64./ y`.
-- ==
-- input { 8f64 } output { [4f64] [0.25f64] [7f64] [-7f64] 9f64 }

entry main (x: f64) =
  (map (f64./ 2) [x], map (2 f64./) [x], map (f64.- 1) [x], map (1 f64.-) [x], (f64.+) 1 x)
