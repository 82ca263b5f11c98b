-- Update paths mixing indices and fields: `e with [i].f = v`,
-- `r with f[i] = v`, `let xs[i].f = v`, `let r.f[a:b] = v`, and nested
-- fields `let r.f.g = v`.
-- ==
-- input { 7 } output { [7, 2] [1, 7, 3] [[1, 7, 3], [4, 5, 6]] [0, 7, 0, 4] 7 }

def main (x: i32) =
  let xs = [{f = 1i32}, {f = 2i32}]
  let ys = xs with [0].f = x
  let r = {f = [1i32, 2, 3], g = {h = 0i32}}
  let r' = r with f[1] = x
  let xss: *[]{a: []i32} = [{a = [1i32, 2, 3]}, {a = [4i32, 5, 6]}]
  let xss[0].a[1] = x
  let q = {f = [1i32, 2, 3, 4]}
  let q.f[0:3] = [0, x, 0]
  let r.g.h = x
  in (map (.f) ys, r'.f, map (.a) xss, q.f, r.g.h)
