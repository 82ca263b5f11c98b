entry for_loop (n: i32): i32 = loop acc = 0 for i < n do acc + i

entry for_in (xs: []f32): (f32, f32) =
  loop (s, p) = (0, 1) for x in xs do (s + x, p * x)

entry while_loop (x: i64): i64 = loop x while x < 100 do x * 2

entry growing (n: i64): []i64 = loop xs = [0] for i < n do xs ++ [i]
