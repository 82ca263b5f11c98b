-- A local function returning a tuple.
-- ==
-- input { 17 5 }
-- output { 3 2 }
def main (a: i32) (b: i32): (i32, i32) =
  let divmod (x: i32) (y: i32): (i32, i32) = (x / y, x % y)
  in divmod a b
