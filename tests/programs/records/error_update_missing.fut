-- A record update names a field the record does not have.
-- ==
-- error: expected
def main (x: i32): i32 =
  let r = {a = x, b = {c = x}}
  let r2 = r with b.d = 1
  in r2.a
