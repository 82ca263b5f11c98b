-- Evaluating a polynomial with Horner's rule at several points.
-- ==
-- input { [1, -2, 3] [0, 1, 2, -1] }
-- output { [3, 2, 3, 6] }
def horner (coeffs: []i32) (x: i32): i32 =
  loop acc = 0 for c in coeffs do acc * x + c

def main (coeffs: []i32) (xs: []i32): []i32 = map (horner coeffs) xs
