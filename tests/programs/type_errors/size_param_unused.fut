-- A size parameter that no parameter's type uses has no value.
-- ==
-- error: Size \[n\] unused in pattern: `n` is the size of nothing
def f [n] (x: i32): i64 = n + i64.i32 x
def main (x: i32) = f x
