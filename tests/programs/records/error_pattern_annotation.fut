-- A record pattern annotated with a record type of other fields.
-- ==
-- error: expected
def main (x: i32): i32 =
  let ({a, b}: {a: i32, c: i32}) = {a = x, c = x}
  in a + b
