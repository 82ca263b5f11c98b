-- Accessing a field that the record does not have.
-- ==
-- error: expected|unknown
def main (x: i32): i32 =
  let r = {a = x, b = x}
  in r.c
