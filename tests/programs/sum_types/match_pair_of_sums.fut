-- `match` on a tuple of two sums, one case per combination of
-- constructors.
-- ==
-- input { 3 4 }
-- output { 7 -3 40 101 }
type either 'a 'b = #left a | #right b

def combine (x: either i32 bool) (y: either i32 bool): i32 =
  match (x, y)
  case (#left a, #left b) -> a + b
  case (#left a, #right t) -> if t then a else -a
  case (#right s, #left b) -> if s then b * 10 else 0
  case (#right s, #right t) -> i32.bool (s && t) + 100

def main (a: i32) (b: i32): (i32, i32, i32, i32) =
  ( combine (#left a) (#left b)
  , combine (#left a) (#right false)
  , combine (#right true) (#left b)
  , combine (#right true) (#right true) )
