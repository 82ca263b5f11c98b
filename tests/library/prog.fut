-- The program of driver/tests/library.rs: built with `futmlir build
-- --library` and used from C (main.c) and from Python (ctypes_test.py).

type point = {x: f32, y: f32}

type~ cloud = {pts: []f32, w: f32}

entry scale (k: f32) (xs: []f32) : []f32 = map (* k) xs

entry sum_and_max (xs: []i32) : (i32, i32) = (i32.sum xs, i32.maximum xs)

entry transpose_sum (xss: [][]i64) : []i64 = map i64.sum (transpose xss)

entry move (p: point) (d: f32) : point = {x = p.x + d, y = p.y + d}

entry weigh (c: cloud) : cloud = {pts = map (* c.w) c.pts, w = c.w + 1}

entry total (c: cloud) : f32 = f32.sum c.pts * c.w

entry checked (xs: []i32) (i: i64) : i32 = assert (i < length xs) (xs[i] * 2)

entry stats (xs: []f64) : {n: i64, mean: f64} = {n = length xs, mean = f64.sum xs / f64.i64 (length xs)}

type~ shape = #circle f32 | #poly ([]f32) i32 | #empty

entry area (s: shape) : f32 =
  match s
  case #circle r -> 3 * r * r
  case #poly xs n -> f32.sum xs * f32.i32 n
  case #empty -> 0

entry grow (s: shape) : shape =
  match s
  case #circle r -> #circle (r + 1)
  case #poly xs n -> #poly (map (+ 1) xs) (n + 1)
  case #empty -> #circle 1
