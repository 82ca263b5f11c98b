-- A functional argument made by a consumption could consume many times.
-- ==
-- error: Argument of functional type .* contains consumption
def set (xs: *[]i64) (i: i64) : []i64 = xs with [i] = 0

def main (n: i64) =
  let a = iota n
  in map (set a) (iota n)
