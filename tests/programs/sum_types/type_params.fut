-- A type abbreviation with two type parameters and a polymorphic
-- function over it.
-- ==
-- input { [4, 0, 2] }
-- output { [25, -1, 50] }
type result 'a 'e = #ok a | #err e

def map_ok 'a 'b 'e (f: a -> b) (r: result a e): result b e =
  match r
  case #ok x -> #ok (f x)
  case #err e -> #err e

def safe_div (x: i32): result i32 bool =
  if x == 0 then #err true else #ok (100 / x)

def main (xs: []i32): []i32 =
  map (\x -> match map_ok (\y -> y * 2) (safe_div x) |> map_ok (\y -> y / 2)
             case #ok v -> v
             case #err _ -> -1) xs
