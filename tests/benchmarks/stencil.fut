-- A 5-point stencil iterated 100 times on a matrix (issue 24's memory
-- benchmark: bandwidth against a device-to-device copy). The border
-- stays as it is.
-- ==
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] 1i64 }
-- output { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
-- notest random input { [4096][4096]f32 100i64 }
def step [n][m] (a: [n][m]f32): [n][m]f32 =
  tabulate_2d n m (\i j ->
    if i == 0 || j == 0 || i == n - 1 || j == m - 1 then a[i, j]
    else 0.2f32 * (a[i, j] + a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]))

def main [n][m] (a: [n][m]f32) (k: i64): [n][m]f32 =
  loop a for _i < k do step a
