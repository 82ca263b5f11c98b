-- A size parameter of a higher-order function cannot stand for a size
-- named after the function argument's parameter.
-- ==
-- error: Cannot apply "h" to "iota".*Sizes "m" and "\?kd[0-9]+" do not match

def h [m] (f: i64 -> [m]i64) (k: i64) : [m]i64 = f k

def main (n: i64) = h iota n
