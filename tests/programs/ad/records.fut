-- Record-typed inputs and results: f {a, b} = a·b + a in direction
-- {a = 1, b = 0} is b + 1 = 4; a record result {s = 2x, p = x²} has the
-- tangents {s = 2, p = 2x = 6}; an array of pairs: d(a·b) in direction
-- (1, 1) is a + b.
-- ==
-- input { 2.0 3.0 }
-- output { 4.0 2.0 6.0 [3.0, 5.0] }
def main (x: f64) (y: f64) =
  let t = jvp (\{a, b} -> a * b + a) {a = x, b = y} {a = 1, b = 0}
  let r = jvp (\v -> {s = v + v, p = v * v}) y 1
  let ps = jvp (map (\(a, b) -> a * b)) (zip [1f64, 2] [2f64, 3]) (zip [1, 1] [1, 1])
  in (t, r.s, r.p, ps)
