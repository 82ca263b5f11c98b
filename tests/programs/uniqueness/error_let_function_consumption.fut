-- Let-binding a function made by a consumption.
-- ==
-- error: Let-bound expression of higher-order type .* contains consumption
def update (xs: *[]i32) (i: i32) (y: i32) = xs with [i] = y

def main (xs: *[]i32) =
  let f = update xs
  in f 0 1
