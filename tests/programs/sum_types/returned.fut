-- Functions returning sum values, chained through `match`.
-- ==
-- input { 10 } output { 5 }
-- input { 8 } output { 40 }
-- input { 3 } output { 30 }
-- input { -4 } output { -1 }
type parsed = #neg | #small i32 | #big i32

def parse (x: i32): parsed =
  if x < 0 then #neg else if x < 5 then #small x else #big x

def halve (p: parsed): parsed =
  match p
  case #big x -> if x / 2 < 5 then #small (x / 2) else #big (x / 2)
  case q -> q

def main (x: i32): i32 =
  match halve (parse x)
  case #neg -> -1
  case #small v -> v * 10
  case #big v -> v
