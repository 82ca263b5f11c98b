-- `loop pat for ...` without `= init` starts from the variables the
-- pattern binds, for any pattern (tuples, records, ascriptions).
-- ==
-- input { 3 } output { 8 8 5 }

entry main (n: i32) =
  let (a, b) = (1i32, 1i32)
  let (a, b) = loop (a, b) for _i < n do (a + b, a + b)
  let c = 2i32
  let {c} = loop {c: i32} while c < 5 do {c = c + 3}
  in (a, b, c)
