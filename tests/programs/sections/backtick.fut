-- Named functions used as infix operators with backticks.
-- ==
-- input { 10 3 }
-- output { 7 13 7 }
def sub (x: i32) (y: i32): i32 = x - y
def add (x: i32) (y: i32): i32 = x + y

def main (a: i32) (b: i32): (i32, i32, i32) =
  (a `sub` b, a `add` b, sub a b)
