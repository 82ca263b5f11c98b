-- `#[noinline]` on an application keeps the call a call, inside the
-- kernel of a map and of a reduction (fused into one segred), and the
-- called function's own noinline call stays inside it.
-- ==
-- input { 3 [1, 2, 3] } output { [4, 5, 6] 21 }
-- structure gpu { SegRed/Apply 2 /Apply 1 }

def add (x: i32) (y: i32) = x + y

def twice (x: i32) (y: i32) = (#[noinline] add x y) + x

def main (y: i32) (xs: []i32) =
  (map (\x -> #[noinline] add x y) xs, i32.sum (map (\x -> #[noinline] twice x y) xs))
