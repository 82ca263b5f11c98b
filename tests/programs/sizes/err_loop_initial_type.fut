-- The body makes the loop parameter square, so the initial value must be
-- square too, even though both sizes change in the loop (Note
-- [Loop-variant sizes]).
-- ==
-- error: Initial loop values do not have expected type

def mul [a] [b] [c] (x: [a][b]i32) (y: [b][c]i32) : [a][c]i32 =
  map (\r -> map (\col -> i32.sum (map2 (*) r col)) (transpose y)) x

def main [n] [m] (x: [n][m]i32) =
  loop x for _i < 2 do mul x[1:, :] x[:, 1:]
