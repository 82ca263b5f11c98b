-- Row softmax: the maximum, the exponentials, their sum and the quotients
-- of each row (anchor: torch.softmax(x, 1)). Fusion decides how many
-- passes over each row the kernels make. The big dataset is for `futmlir
-- bench` and `futmlir explore` only (`notest`).
-- ==
-- input { [[0f32, 0f32], [1f32, 1f32]] } output { [[0.5f32, 0.5f32], [0.5f32, 0.5f32]] }
-- input { [[0f32, 0f32, 0f32, 0f32]] } output { [[0.25f32, 0.25f32, 0.25f32, 0.25f32]] }
-- notest random input { [100000][1000]f32 }
def softmax (xs: []f32): []f32 =
  let m = f32.maximum xs
  let es = map (\x -> f32.exp (x - m)) xs
  let s = f32.sum es
  in map (/ s) es

def main (xss: [][]f32): [][]f32 = map softmax xss
