-- The value written in place may not alias the array updated.
-- ==
-- error: in-place update may not alias the array
def main [n] (a: *[][n]i32) : [][n]i32 = a with [1] = a[0]
