-- `vjp` through `if` and `match`: only the branch taken counts.
-- x² if x > 0 else 0: 6 at 3, 0 at -1; a·b if a < b else a + b: (b, a)
-- = (2, 1) at (1, 2) and (1, 1) at (3, 2); through a sum type, 2x for
-- #pos and 3x for #neg: 2 at 1, 3 at -1.
-- ==
-- input { 3.0 -1.0 }
-- output { 6.0 0.0 2.0 1.0 1.0 1.0 2.0 3.0 }
type sign = #pos f64 | #neg f64

def relu2 (x: f64) = if x > 0 then x * x else 0

def pick (a: f64, b: f64) = if a < b then a * b else a + b

def scaled (x: f64) =
  match (if x > 0 then #pos x else #neg x) : sign
  case #pos y -> y * 2
  case #neg y -> y * 3

def main (p: f64) (n: f64) =
  let (a1, b1) = vjp pick (1, 2) 1
  let (a2, b2) = vjp pick (3, 2) 1
  in (vjp relu2 p 1, vjp relu2 n 1, a1, b1, a2, b2, vjp scaled 1 1, vjp scaled n 1)
