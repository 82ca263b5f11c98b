-- Index of the maximum by a reduction with a non-commutative operator on
-- (value, index) tuples: the left operand wins a tie, so the result is
-- the first index among equal maxima (anchor: torch.max(x, 0)). The big
-- dataset is for `futmlir bench` only (`notest`).
-- ==
-- input { [1f32, 5f32, 2f32, 5f32, 0f32] } output { 5f32 1i64 }
-- input { [-1f32] } output { -1f32 0i64 }
-- notest random input { [100000000]f32 }
def argmax (a: f32, i: i64) (b: f32, j: i64): (f32, i64) =
  if b > a then (b, j) else (a, i)

def main (xs: []f32): (f32, i64) =
  reduce argmax (-f32.inf, -1) (zip xs (iota (length xs)))
