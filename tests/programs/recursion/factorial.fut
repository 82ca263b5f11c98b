-- A top-level function is in scope of its own body; the compiled
-- backends keep its recursive calls as calls.
-- ==
-- input { 5 } output { 120 }
-- input { 0 } output { 1 }

def fact (n: i32): i32 = if n == 0 then 1 else n * fact (n - 1)

-- Without a return type annotation, the result type is inferred.
def count_down (n: i64) = if n <= 0 then 0i64 else 1 + count_down (n - 1)

def main (x: i32): i32 = fact x + i32.i64 (count_down 0)
