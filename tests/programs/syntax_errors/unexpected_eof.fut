-- A program that ends inside a `let` without `in`.
-- ==
-- error: Unexpected end of file

def main (x: i32) : i32 =
  let y = x + 1
