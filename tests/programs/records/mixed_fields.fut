-- Records with fields of different types, including arrays.
-- ==
-- input { [1.5f32, 2.5f32] }
-- output { 4.0f32 2i64 true }
def main (xs: []f32): (f32, i64, bool) =
  let r = {data = xs, n = length xs, ok = true}
  in (f32.sum r.data, r.n, r.ok)
