-- A state machine run by a loop: read a number with an optional sign,
-- then stop at the first character that is not a digit. The inputs are the
-- strings "-123x45", "+42", "7" and "x9".
-- ==
-- input { [45u8, 49u8, 50u8, 51u8, 120u8, 52u8, 53u8] } output { -123 }
-- input { [43u8, 52u8, 50u8] } output { 42 }
-- input { [55u8] } output { 7 }
-- input { [120u8, 57u8] } output { 0 }
type state = #start | #number i32 i32 | #done i32

def step (s: state) (c: u8): state =
  let digit = c >= '0' && c <= '9'
  let d = i32.u8 (c - '0')
  in match s
     case #start ->
       if c == '-' then #number (-1) 0
       else if c == '+' then #number 1 0
       else if digit then #number 1 d
       else #done 0
     case #number sign acc ->
       if digit then #number sign (acc * 10 + d) else #done (sign * acc)
     case #done v -> #done v

def main (s: []u8): i32 =
  let final = loop st = #start for c in s do step st c
  in match final
     case #start -> 0
     case #number sign acc -> sign * acc
     case #done v -> v
