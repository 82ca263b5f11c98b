-- ==
-- input { [[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]] }
def main (a: [][][]i32) =
  (a[1], a[:, 1], a[:, :, 0], a[1, :, 1], a[0, 1:, :], a[:, 2, 1], transpose a, map transpose a, flatten a,
   flatten_3d a, unflatten_3d (flatten_3d a :> [3*2*2]i32), copy a with [1, 2, 0] = 0, copy a with [0] = a[1], copy a with [:, 0] = [[0, 0], [1, 1]],
   copy a with [1, :, 1] = [100, 200, 300], rotate 1 a, map (rotate 1) a, a[:, ::-1], a[::-1, 1:3, :])
