-- A run-time error raised in a function kept a call stops the program
-- as it does in inlined code, in a kernel's call and in the host's.
-- ==
-- input { 3 [1, 2, 3] } output { [0, 0, 1] 1 }
-- input { 0 [1, 2, 3] } error: division by zero
-- structure gpu { SegMap/Apply 1 /Apply 2 }

def f (x: i32) (y: i32) = x / y

def main (y: i32) (xs: []i32) = (map (\x -> #[noinline] f x y) xs, #[noinline] f 3 y)

-- ==
-- entry: index
-- input { [1, 2, 3] 2i64 } output { 3 }
-- input { [1, 2, 3] 3i64 } error: out of bounds

#[noinline]
def at (xs: []i32) (i: i64) = xs[i]

entry index (xs: []i32) (i: i64) = at xs i
