-- The size of `n |> iota` is fixed once the application is made: an
-- unlifted type parameter may then have it (Note [Dependent function
-- types]).
-- ==
-- input { 3i64 [1, 2] }
-- output { [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] }

def main (n: i64) (ys: []i32) =
  let xs = n |> iota
  in map (\_ -> xs) ys
