-- A tuple parameter with a unique component consumes the whole
-- argument, so an alias of the consumed array cannot be used after.
-- ==
-- error: Using "b", which aliases "a", but "a" was consumed
def f (a: *[]i64, i: i64) : i64 = let a[i] = 0 in a[i]

def main (n: i64) : i64 =
  let a = iota n
  let b = a
  in f (a, 0) + b[1]
