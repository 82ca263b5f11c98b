-- A record with a nested record as loop state, updated field by field
-- with `r with a.b = v`.
-- ==
-- input { 4 }
-- output { 6 -4 4 }
-- input { 0 }
-- output { 0 0 0 }
def main (n: i32): (i32, i32, i32) =
  let r = loop r = {pos = {x = 0, y = 0}, steps = 0} for i < n do
            let r = r with pos.x = r.pos.x + i
            let r = r with pos.y = r.pos.y - 1
            in r with steps = r.steps + 1
  in (r.pos.x, r.pos.y, r.steps)
