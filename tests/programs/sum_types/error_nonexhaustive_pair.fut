-- A `match` on a pair of sums that misses one combination.
-- ==
-- error: Unmatched cases in match expression
type either 'a 'b = #left a | #right b

def combine (x: either i32 bool) (y: either i32 bool): i32 =
  match (x, y)
  case (#left a, #left b) -> a + b
  case (#left a, #right _) -> a
  case (#right _, #right _) -> 0

def main (a: i32): i32 = combine (#left a) (#right true)
