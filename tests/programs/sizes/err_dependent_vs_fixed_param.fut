-- A `[]` in a parameter of a function-typed parameter is a size the body
-- fixes (here to 1); a function whose parameter's size is named after an
-- earlier parameter has no fixed size there.
-- ==
-- error: Cannot apply "ap" to "g".*Sizes "1" and "\?kd[0-9]+" do not match

def ap (f: i64 -> []i32 -> i32) (k: i32) : i32 = f 0 [k]

def g (n: i64) (xs: [n]i32) : i32 = xs[n - 1]

def main (k: i32) = ap g k
