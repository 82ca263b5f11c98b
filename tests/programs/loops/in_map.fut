-- Sequential loops inside a parallel map.
-- ==
-- input { [0, 1, 5] }
-- output { [1, 1, 120] }
def main (xs: []i32): []i32 =
  map (\n -> loop f = 1 for i < n do f * (i + 1)) xs
