-- Copying a fresh array and updating the copy in a loop leaves the
-- original usable (uniqueness of `map`'s result must not leak into `copy`).
-- ==
-- input { [1, 2, 3] }
-- output { [2, 3, 4] [0, 1, 2] }
def main [n] (xs: [n]i32): ([n]i32, [n]i32) =
  let ys = map (+ 1) xs
  let zs = loop acc = copy ys for j < n do acc with [j] = i32.i64 j
  in (ys, zs)
