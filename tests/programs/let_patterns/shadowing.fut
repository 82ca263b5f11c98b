-- A let binding may shadow an earlier binding of the same name.
-- ==
-- input { 4 }
-- output { 10 }
def main (x: i32): i32 =
  let x = x + 1
  let x = x * 2
  in x
