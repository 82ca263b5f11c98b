-- Mandelbrot escape counts on a small grid, printed as an array of rows.
-- Run it with:  echo '24i64 12i64 50' | futmlir run examples/mandelbrot.fut

def escape (limit: i32) (cr: f32) (ci: f32): i32 =
  let (_, _, i) =
    loop (zr, zi, i) = (0f32, 0f32, 0) while i < limit && zr * zr + zi * zi < 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, i + 1)
  in i

def main (w: i64) (h: i64) (limit: i32): [h][w]i32 =
  tabulate_2d h w (\y x ->
    let cr = -2 + 3 * f32.i64 x / f32.i64 w
    let ci = -1 + 2 * f32.i64 y / f32.i64 h
    in escape limit cr ci)
