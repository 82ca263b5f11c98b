-- Functions cannot be compared with `==`.
-- ==
-- error: cannot be compared
def main (x: i32): bool =
  let f = (+ x)
  in f == f
