-- ==
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [7i32, 8i32, 9i32] }
def main (m: [][]i32) (v: []i32) =
  (transpose m, flatten m, unflatten (flatten m :> [3*2]i32), m ++ [v], concat v v, rotate 1 v, rotate (-4) v,
   map (rotate 2) m, reverse v, reverse m, iota 4, replicate 2 v, copy m, tabulate 3 (\i -> i * i),
   tabulate_2d 2 3 (\i j -> i + j * 10), m[1], m[:, 1], m[1, 1:], m[::-1, ::2], v[1:], v[::-1], v[2:0:-1],
   m[0:1, 1:3], length v, flatten_3d [m, m], transpose (transpose m), 1..<5, 5..>1, 1..3...10, 10..8...0,
   map (\r -> r[::2]) m, copy m with [0, 1] = 42, copy m with [1] = v, copy v with [0:2] = [0, 0], m == m, v == [7, 8, 9], v != [7, 8, 8])
