-- A library file for the `imports` tests (no test block: not run).

def square (x: i32) = x * x

def cube (x: i32) = x * square x

module Stats = {
  def mean (xs: []f64) = f64.sum xs / f64.i64 (length xs)
}
