-- An array consumed in one case may not be used after the `match`.
-- ==
-- error: consumed
type which = #first | #second

def main (xs: *[]i32) (w: which): i32 =
  let ys = match w
           case #first -> xs with [0] = 9
           case #second -> copy xs
  in ys[0] + xs[0]
