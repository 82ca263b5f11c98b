-- `filter` on an array of sums keeps tags and payloads together.
-- ==
-- input { [1, -2, 3, -4, 5] } output { [1, 3, 5] 3i64 }
type opt = #some i32 | #none

def main (xs: []i32): ([]i32, i64) =
  let os: []opt = map (\x -> if x > 0 then #some x else #none) xs
  let kept = filter (\o -> o != #none) os
  in (map (\o -> match o case #some v -> v case #none -> 0) kept, length kept)
