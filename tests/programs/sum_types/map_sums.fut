-- `map` producing sum values (an array of sums: a tag array and payload
-- arrays), consumed by another `map` and a reduction.
-- ==
-- input { [3, -1, 0, 5, -7] }
-- output { 8 2 1 }
type sign = #pos i32 | #neg | #zero

def main (xs: []i32): (i32, i32, i32) =
  let ss: []sign = map (\x -> if x > 0 then #pos x else if x < 0 then #neg else #zero) xs
  let pos = i32.sum (map (\s -> match s case #pos v -> v case _ -> 0) ss)
  let negs = i32.sum (map (\s -> match s case #neg -> 1 case _ -> 0) ss)
  let zeros = i32.sum (map (\s -> match s case #zero -> 1 case _ -> 0) ss)
  in (pos, negs, zeros)
