-- ==
-- input { 5i64 [3i32, 1i32, 2i32] }
-- input { 0i64 empty([0]i32) }
def main (n: i64) (xs: []i32) =
  let a = loop acc = [] for i < n do acc ++ [i32.i64 i]
  let b = loop (ys, k) = (xs, 0i32) while k < 3 do (ys ++ ys, k + 1)
  let c = loop s = 0i32 for x in xs do s * 10 + x
  let d = loop (m: [3][3]i32) = replicate 3 (replicate 3 0i32) for i < 3 do m with [i, 2 - i] = i32.i64 i + 1
  let e = map (\x -> loop y = x for j < 4 do y * 2 + i32.i64 j) xs
  let f = loop (q: []i32) = xs for i < 2 do filter (> i32.i64 i) q
  let g = loop z = 0u8 for i < 300 do z + 1
  let h = loop (i, acc) = (0i32, 1i64) while i < 10 do (i + 1, acc * 3)
  let w = loop arr = copy xs for i < length xs do (let arr[i] = arr[i] * arr[i] in arr)
  in (a, b.0, b.1, c, d, e, f, g, h.1, w, loop x = 1i32 for i < 0i32 do x + 1, loop x = 2u16 for i < 5u16 do x * (i + 1))
