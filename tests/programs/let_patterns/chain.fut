-- A chain of let bindings with a single final 'in'.
-- ==
-- input { 2 }
-- output { 15 }
def main (x: i32): i32 =
  let a = x + 1
  let b = a * 4
  let c = b + a
  in c
