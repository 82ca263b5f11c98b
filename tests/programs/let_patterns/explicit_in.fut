-- Let bindings each with an explicit 'in'.
-- ==
-- input { 3 }
-- output { 24 }
def main (x: i32): i32 =
  let a = x * 2 in
  let b = a + 2 in
  a * b / 2
