-- Arrays a loop makes anew each iteration, kept from one branch and
-- remade in the other; the block of the kept one lives on as the
-- loop's next array (Note [Carried blocks] in passes/src/imp/carried.rs).
-- ==
-- input { 5i64 [1f32, 2f32, 3f32, 4f32] }
-- output { [29f32, 25f32, 21f32, 17f32] [10f32, 20f32, 30f32, 40f32] [4f32, 3f32, 2f32, 1f32] }
-- input { 0i64 [1f32, 2f32] }
-- output { [1f32, 2f32] [10f32, 20f32] [1f32, 2f32] }
def main (n: i64) (xs: []f32) =
  let a = loop xs for i < n do
            let ys = map (+1) (reverse xs)
            in if i % 2 == 0 then ys else map (*2) ys
  -- A swap: each parameter's array goes on as the other.
  let (b, _) = loop (p, q) = (map (*10) xs, xs) for _i < n * 2 do (q, p)
  -- An array made before the loop is its first array.
  let zs = map (+0) xs
  let c = loop zs for _i < n do reverse (map (+0) zs)
  in (a, b, c)
