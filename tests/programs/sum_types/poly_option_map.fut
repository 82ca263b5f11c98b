-- Polymorphic functions over a polymorphic sum type, used at two types
-- and composed with `>->`.
-- ==
-- input { [10, 7, 9] [2, 0, -3] }
-- output { [5, -1, -3] [5.0, 0.5, -3.0] }
type opt 'a = #none | #some a

def opt_map 'a 'b (f: a -> b) (x: opt a): opt b =
  match x
  case #none -> #none
  case #some v -> #some (f v)

def opt_default 'a (d: a) (x: opt a): a =
  match x
  case #none -> d
  case #some v -> v

def safe_div (x: i32) (y: i32): opt i32 = if y == 0 then #none else #some (x / y)

def main [n] (xs: [n]i32) (ys: [n]i32): ([n]i32, [n]f64) =
  let qs = map2 safe_div xs ys
  in (map (opt_default (-1)) qs, map (opt_map f64.i32 >-> opt_default 0.5) qs)
