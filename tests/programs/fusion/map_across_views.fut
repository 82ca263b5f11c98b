-- A map over a reshaped and transposed map result fuses with it: the
-- views apply to the fused map's result (Note [Maps across views]).
-- ==
-- input { 3i64 } output { [[2, 8, 14], [4, 10, 16], [6, 12, 18]] }
-- input { 0i64 } output { empty([0][0]i32) }
-- structure { /Screma 1 /Rearrange 1 }

def main (k: i64) : [][]i32 =
  let a = map (+ 1) (map i32.i64 (iota (k * k)))
  in map (map (* 2)) (transpose (unflatten a :> [k][k]i32))
