-- A branch that consumes a variable: the result of the `if` need not
-- alias it, since it is dead after the `if`.
-- ==
-- input { 42i64 } output { [0i64, 1i64, 2i64] }
-- input { 0i64 } output { empty([0]i64) }
def fresh (_: *[]i64) : *[]i64 = iota 3

def main (n: i64) : []i64 =
  let a = iota n
  let x = if n == 0 then a else fresh a
  in x
