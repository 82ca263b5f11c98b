-- Sections of backticked functions.
-- ==
-- input { [1, 2, 3] }
-- output { [0, 1, 2] [9, 8, 7] }
def sub (x: i32) (y: i32): i32 = x - y

def main (xs: []i32): ([]i32, []i32) =
  (map (`sub` 1) xs, map (10 `sub`) xs)
