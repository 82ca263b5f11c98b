-- A size coercion of a 4-D array reports both shapes: eight message
-- arguments (the message's arguments once stopped at seven, and a
-- verified pipeline rejected the program).
-- ==
-- input { [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]] }
-- error: Value of shape \[1\]\[2\]\[2\]\[2\] cannot match shape of type "\[2\]\[2\]\[2\]\[2\]i32"
-- input { [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]] }
-- output { 72 }
def main [a][b][c][d] (x: [a][b][c][d]i32) =
  let y = x :> [2][2][2][2]i32
  in i32.sum (flatten (flatten (flatten y)))
