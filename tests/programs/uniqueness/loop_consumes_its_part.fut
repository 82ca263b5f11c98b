-- A loop consumes the initial values of only those parameters its body
-- consumes: `rng` aliases the non-unique parameter `seed` and is not
-- consumed, `xs` is fresh and updated in place.
-- ==
-- input { [5, 6] } output { [5, 6, 7] [5, 6] }

def step (s: []i32) = (s[0], s)

entry main (seed: []i32) =
  let rng = seed
  let (xs, rng) =
    loop (xs, rng) = (replicate 3 0i32, rng) for i < 3 do
      let (v, rng) = step rng
      in (xs with [i] = v + i32.i64 i, rng)
  in (xs, rng)
