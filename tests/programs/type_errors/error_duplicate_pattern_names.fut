-- A name bound twice in one pattern.
-- ==
-- error: Variable "a" also bound
def main (x: i32) : i32 =
  let (a, {b = a}) = (x, {b = x})
  in a
