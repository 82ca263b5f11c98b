-- Sum types are structural: the order of the constructors in a type does
-- not matter, and an abbreviation is just a name for the type.
-- ==
-- input { true } output { 1 }
-- input { false } output { 2 }
type t1 = #a i32 | #b
type t2 = #b | #a i32

def f (x: t1): i32 =
  match x
  case #a n -> n
  case #b -> 2

def main (c: bool): i32 =
  let y: t2 = if c then #a 1 else #b
  in f y
