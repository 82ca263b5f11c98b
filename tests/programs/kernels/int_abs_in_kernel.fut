-- Integer `abs` inside GPU kernels, at every signed width: the minimum
-- wraps to itself. (It was `math.absi`, which the kernels' MLIR pipeline
-- with libdevice could not lower: found by `futmlir fuzz` on CUDA.)
-- ==
-- input { [-128i8, -1i8, 0i8, 7i8] [-32768i16, -5i16] [-2147483648i32, -3i32, 3i32] [-9223372036854775808i64, -1i64] }
-- output { [-128i8, 1i8, 0i8, 7i8] [-32768i16, 5i16] [-2147483648i32, 3i32, 3i32] [-9223372036854775808i64, 1i64] }

def main (a: []i8) (b: []i16) (c: []i32) (d: []i64) =
  (map i8.abs a, map i16.abs b, map i32.abs c, map i64.abs d)
