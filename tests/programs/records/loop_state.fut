-- A record as loop state.
-- ==
-- input { 5 }
-- output { 15 5 }
def main (n: i32): (i32, i32) =
  let s = loop s = {sum = 0, count = 0} for i < n do
            {sum = s.sum + i + 1, count = s.count + 1}
  in (s.sum, s.count)
