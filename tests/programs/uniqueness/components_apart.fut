-- Components are tracked apart: a tuple of two fresh arrays bound to one
-- variable, a loop over a record, and a function returning a pair of its
-- parameters' copies give unique components that alias nothing else, and
-- consuming a tuple argument of two distinct arrays is fine.
-- ==
-- input { 3i64 } output { [1i64, 1i64, 2i64] [7i64, 2i64, 3i64] 9i64 }

def pair (x: []i64) (y: []i64) = (copy x, copy y)

def sum2 (t: *([]i64, []i64)) =
  let (a, b) = t
  in (a with [0] = 1)[0] + (b with [0] = 8)[0]

def main (n: i64) : (*[]i64, *[]i64, i64) =
  let t = (iota n, iota n)
  let {a, b} =
    loop {a = a: *[]i64, b = b: *[]i64} = {a = t.0, b = t.1} for i < 1 do
      {a = a with [i] = 1, b = b with [i] = 7}
  let (c, d) = pair a (map (+ 1) b)
  in (c, d with [0] = 7, sum2 (iota n, iota n))
