-- A loop whose body changes the size of its parameter returns a fresh
-- size: usable where any size is, and the body may return the initial
-- value's size, which keeps it (Note [Loop-variant sizes]).
-- ==
-- input { [1, 2] 2i64 }
-- output { 8i64 [4, 5] [2, 4] }

def main [n] (xs: [n]i32) (k: i64) : (i64, [n]i32, [n]i32) =
  let ys = loop ys = xs for _i < k do ys ++ ys
  let zs = loop zs = xs for i < 3 do tabulate n (\j -> zs[j] + 1)
  let ws = loop (acc: [n]i32) = xs for _i < 1 do map2 (+) acc xs
  in (length ys, zs, ws)
