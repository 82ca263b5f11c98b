-- scatter_3d writes values at triples of indices.
-- ==
-- input { 9 }
-- output { [[[0, 0], [0, 9]], [[10, 0], [0, 0]]] }
def main (v: i32): [][][]i32 =
  scatter_3d (replicate 2 (replicate 2 (replicate 2 0)))
             [(0, 1, 1), (1, 0, 0)]
             [v, v + 1]
