-- `iterate n f x` applies `f` `n` times (none when `n <= 0`);
-- `iterate_until p f x` and `iterate_while p f x` test `p` before each
-- application, so they may apply `f` no times.
-- ==
-- input { 3 5 }
-- output { 40 160 160 5 5 }
-- input { 0 200 }
-- output { 200 200 200 200 200 }
-- input { -2 1 }
-- output { 1 128 128 1 1 }
def main (n: i32) (x: i32): (i32, i32, i32, i32, i32) =
  ( iterate n (* 2) x
  , iterate_until (> 100) (* 2) x
  , iterate_while (<= 100) (* 2) x
  , iterate_while (> 1000) (* 2) x
  , iterate_until (> 0) (* 2) x )

-- On arrays: rotate by one, three times.
-- ==
-- entry: rotations
-- input { [1, 2, 3, 4] }
-- output { [4, 1, 2, 3] }
entry rotations (xs: []i32): []i32 = iterate 3 (rotate 1) xs
