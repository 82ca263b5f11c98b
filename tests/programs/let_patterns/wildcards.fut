-- Wildcard patterns discard components.
-- ==
-- input { 1 2 3 }
-- output { 2 }
def main (x: i32) (y: i32) (z: i32): i32 =
  let (_, b, _) = (x, y, z)
  in b
