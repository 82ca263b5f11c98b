-- An array of sum values: indexing, a literal, and `reduce` over the
-- results of matching.
-- ==
-- input { 1i64 } output { 2 6 }
-- input { 3i64 } output { 0 6 }
type op = #add i32 | #mul i32 | #nop

def apply (acc: i32) (o: op): i32 =
  match o
  case #add k -> acc + k
  case #mul k -> acc * k
  case #nop -> acc

def main (i: i64): (i32, i32) =
  let ops: [4]op = [#add 1, #mul 2, #add 4, #nop]
  let one = match ops[i] case #mul k -> k case #add _ -> 0 case #nop -> 0
  in (one, foldl apply 0 ops)
