-- A later parameter's size named after an earlier parameter depends on
-- its argument too: `map2`'s `'b` cannot be `[n]i32`.
-- ==
-- error: Cannot apply "map2" to "last".*anonymous sizes

def last (n: i64) (xs: [n]i32) : i32 = xs[n - 1]

def main (ns: []i64) (xss: [][]i32) = map2 last ns xss
