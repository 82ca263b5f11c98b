-- Recursion is polymorphic in the explicit size parameters: the recursive
-- calls take shorter arrays.
-- ==
-- input { [1, 2, 3, 4] } output { 10 }
-- input { empty([0]i32) } output { 0 }

def sum [n] (xs: [n]i32): i32 =
  if n == 0 then 0 else xs[0] + sum (drop 1 xs)

def main (xs: []i32) = sum xs
