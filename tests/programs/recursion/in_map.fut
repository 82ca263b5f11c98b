-- A recursive function called in a map's body: a sequential call inside
-- the kernel (fib calls itself twice).
-- ==
-- input { [0, 1, 5, 10] } output { [0i64, 1i64, 5i64, 55i64] }
-- structure gpu { SegMap/Apply 1 /Apply 2 }

def fib (n: i32) : i64 = if n < 2 then i64.i32 n else fib (n - 1) + fib (n - 2)

def main (xs: []i32) = map fib xs
