-- ==
-- input { [1i32, 2i32, 3i32] [1.5f32, 2.5f32, 3.5f32] }
type point = {x: i32, y: f32}
def norm (p: point): f32 = f32.i32 p.x + p.y
def main (xs: []i32) (ys: []f32) =
  let ps = map2 (\x y -> {x, y}) xs ys
  let moved = map (\p -> p with x = p.x * 2) ps
  let r = reduce (\a b -> {x = a.x + b.x, y = f32.max a.y b.y}) {x = 0, y = -f32.inf} ps
  let nested = {a = {b = 1i32, c = xs}, d = ys}
  let nested2 = nested with a.b = 5
  let {x = px, y = py} = ps[1]
  in (map norm ps, map (.x) moved, r.x, r.y, nested2.a.b, nested2.a.c, px, py, map (\p -> p.y) (filter (\p -> p.x > 1) ps))
