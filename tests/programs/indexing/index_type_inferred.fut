-- An index whose type is not known when it is checked may be of any
-- integer type; nothing else deciding it, it is an `i32` (as an integer
-- literal), so a function indexing with its parameter takes an `i32`.
-- ==
-- input { [[1, 2], [3, 4]] 1 } output { [3, 4] 4 }
-- input { [[1, 2]] 4 } error: Index \[4\] out of bounds for array of shape \[1\]

def index xs i = xs[i]

def main (xss: [][]i32) (i: i32) =
  (index xss i, (\j -> xss[j, j]) (i64.i32 i))
