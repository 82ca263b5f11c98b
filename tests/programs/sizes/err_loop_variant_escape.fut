-- A size that changes in every iteration may not come into the type of
-- a variable bound outside the loop (error index `loop-variant-escape`).
-- ==
-- error: Loop-variant size has escaped

def grow [d] (a: [d]f64) (b: [d + 1]f64) : [d + 1]f64 = b

def main [n] (a: [n]f64) (b: []f64) =
  loop a' = a for _i < 1 do grow a' b
