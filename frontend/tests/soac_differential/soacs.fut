-- ==
-- input { [3i64, 1i64, 4i64, 1i64, 5i64, 9i64, 2i64, 6i64] [1.0f32, 2.0f32, 3.0f32, 4.0f32, 5.0f32, 6.0f32, 7.0f32, 8.0f32] }
-- input { empty([0]i64) empty([0]f32) }
def main (is: []i64) (xs: []f32) =
  let n = length is
  let s = reduce (+) 0 is
  let sc = scan (+) 0 is
  let mx = reduce_comm f32.max (-f32.inf) xs
  let h = hist (+) 0f32 5 is xs
  let rbi = reduce_by_index (replicate 7 1f32) (*) 1f32 is xs
  let sc2 = scatter (replicate 10 0i64) is (iota n)
  let f = filter (\x -> x % 2 == 0) is
  let (p1, p2) = partition (\x -> x > 2) is
  let z = zip is xs
  let (a, b) = unzip (map (\(i, x) -> (i * 2, x + 1)) z)
  let r = reduce (\(a, b) (c, d) -> (a + c, f32.max b d)) (0, -f32.inf) z
  let sc3 = scan (\(a, b) (c, d) -> (a * c, b + d)) (1, 0) (zip is xs)
  in (s, sc, mx, h, rbi, sc2, f, p1, p2, a, b, r.0, r.1, (unzip sc3).0 |> map (% 1000) , unzip sc3 |> (.1), length f)
