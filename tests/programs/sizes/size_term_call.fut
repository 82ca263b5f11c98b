-- Size expressions that are calls: a definition with only size
-- parameters, used at a type whose sizes are the same calls on the
-- caller's names, gets its sizes from that type; `unflatten` at `[i64.i32
-- n * i64.i32 m]` takes `i64.i32 n` and `i64.i32 m` as its sizes.
-- ==
-- input { 1i64 2i64 [1, 2, 3, 4, 5, 6] 2 3 }
-- output { [[true, true, true], [true, true, true], [true, true, true]] [[1, 4], [2, 5], [3, 6]] 3i64 }

def plus a b : i64 = a + b

def square [a] [b] : [plus a b][plus b a]bool = tabulate_2d (plus a b) (plus b a) (\_ _ -> true)

def unpack 't n m : [i64.i32 n * i64.i32 m]t -> [][]t = unflatten

entry main (a: i64) (b: i64) (xs: []i32) (n: i32) (m: i32) =
  let ys = unpack n m (xs :> [i64.i32 n * i64.i32 m]i32)
  in (copy square : [plus a b][plus b a]bool, transpose ys, length (transpose ys))
