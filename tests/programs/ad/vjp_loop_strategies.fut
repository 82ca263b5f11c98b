-- Loops differentiated under each of `soac-vjp`'s loop strategies (Note
-- [Loop strategies]): `tape` (the default pipeline runs these blocks
-- with it), `recompute` and `checkpoint`; driver/tests/vjp_loop_strategies.rs
-- runs the same blocks with `soac-vjp{loop=recompute}` and
-- `soac-vjp{loop=checkpoint}`, so every strategy must give these values.

-- x^n by a `for` loop: n·x^(n-1). n = 10 at 2: 10·512 = 5120; n = 1;
-- n = 0 (no iterations: 0); n = 17, a stride (⌈√17⌉ = 5) that does not
-- divide it: 17·2^16 = 1114112.
-- ==
-- entry: power
-- input { 2.0 10i64 }
-- output { 5120.0 }
-- input { 2.0 1i64 }
-- output { 1.0 }
-- input { 2.0 0i64 }
-- output { 0.0 }
-- input { 2.0 17i64 }
-- output { 1114112.0 }
entry power (x: f64) (n: i64) = vjp (\a -> loop acc = 1 for _i < n do acc * a) x 1

-- A loop whose body reads its index, carrying (a, b) ↦ (b, a·i + b)
-- from (x, 1) for i < 4: (1, 1), (1, 2), (2, 4), (4, 10); x only meets
-- i = 0, so 0. With (a, b) ↦ (b, a·b) from (x, 2) thrice: (2, 2x),
-- (2x, 4x), (4x, 8x²): b = 8x², 16x = 48 at 3.
-- ==
-- entry: pairs
-- input { 3.0 }
-- output { 0.0 48.0 }
entry pairs (x: f64) =
  ( vjp (\a -> (loop (p, q) = (a, 1) for i < 4 do (q, p * f64.i64 i + q)).1) x 1
  , vjp (\a -> (loop (p, q) = (a, 2) for _i < 3 do (q, p * q)).1) x 1 )

-- A `while` loop: doubling 1.5x until it passes 100 at x = 1 runs 7
-- times (1.5·2^7 = 192): 1.5·128 = 192.
-- ==
-- entry: while_loop
-- input { 1.0 }
-- output { 192.0 }
entry while_loop (x: f64) = vjp (\a -> loop y = 1.5 * a while y < 100 do y * 2) x 1

-- An array carried through a long loop, updated in place: each step
-- multiplies element i % 3 by 1.01 and adds it to sum s. The gradient is
-- checked against the same gradient by forward mode (`jvp`, which keeps
-- no tape), at a relative tolerance.
-- ==
-- entry: array
-- input { [1.0, 2.0, 3.0] 1000i64 }
-- output { true }
entry array (xs: [3]f64) (n: i64) =
  let f (zs: [3]f64) =
    (loop (ys, s) = (copy zs, 0) for i < n do
       let j = i % 3
       let ys[j] = ys[j] * 1.01
       in (ys, s + ys[j])).1
  let g = vjp f xs 1
  let h = map (\k -> jvp f xs (tabulate 3 (\l -> f64.bool (l == k)))) (iota 3)
  in and (map2 (\a b -> f64.abs (a - b) <= 1e-9 * f64.abs b) g h)

-- A long loop, v ↦ sin v + x for 3000 iterations, checked against
-- `jvp` (driver/tests/vjp_loop_strategies.rs also compares the peak
-- memory of its tape and checkpoint versions).
-- ==
-- entry: long
-- input { 0.5 3000i64 }
-- output { true }
entry long (x: f64) (n: i64) =
  let f (a: f64) = loop v = a for _i < n do f64.sin v + a
  let g = vjp f x 1
  let h = jvp f x 1
  in f64.abs (g - h) <= 1e-9 * f64.abs h
