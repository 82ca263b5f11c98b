-- `[]#foo | #bar` is an array of the sum type (no parentheses needed).
-- ==
-- input { 2i64 } output { [1, 1, 0, 0] }

def flip (n: i64) : *[]#foo | #bar =
  let x = replicate n #foo ++ replicate n #bar
  in loop x for i < 2 * n do
       x with [i] = match x[i]
         case #foo -> #bar
         case #bar -> #foo

def main (n: i64) = map (\c -> match c case #foo -> 0i32 case #bar -> 1) (flip n)
