def pair 'a (x: a) (y: a): [2]a = [x, y]

def last 't [n] (xs: [n]t): t = xs[n - 1]

entry main (x: i32) (y: f64): (i32, f64, [2]i32, [2]f64) =
  (last (pair x x), last (pair y y), pair x 1, pair y 1)
