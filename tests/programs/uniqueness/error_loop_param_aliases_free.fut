-- The next value of a consuming loop parameter may not alias an array
-- bound outside the loop.
-- ==
-- error: Return value for consuming loop parameter "acc" aliases "other"
def main (n: i64) : i64 =
  let acc = iota n
  let other = iota n
  let r = loop acc for i < n do
            let acc[i] = 0
            in other
  in r[0]
