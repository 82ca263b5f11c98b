-- Nor may a declared return type: `s` is bound inside the tuple.
-- ==
-- error: Return type refers to size "s" which will not be accessible

def mk (s: i64, t: i64) : [s]i64 = iota s |> map (+ t)

def main (n: i64) = mk (n, 1)
