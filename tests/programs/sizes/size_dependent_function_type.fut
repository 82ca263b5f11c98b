-- A size-dependent function type: the result size is the argument.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64, 4i64] 3i64 }
def squares (n: i64): [n]i64 = map (\i -> i * i) (iota n)

def apply_sized (f: (k: i64) -> [k]i64) (m: i64): [m]i64 = f m

def main (n: i64): ([n]i64, i64) =
  let ys = apply_sized squares n
  in (ys, length ys)
