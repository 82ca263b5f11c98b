-- A `noinline` function that makes arrays, called in a map's lambda
-- through another one: the CPU keeps the calls; for the GPU, where a
-- thread cannot allocate, they are inlined (Note [Calls that allocate
-- in kernels]). The results are the same.
-- ==
-- input { [2i64, 7i64, 0i64, 6i64] }
-- output { [1i64, 16i64, 0i64, 10i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

#[noinline]
def bump [n] (xs: [n]i64) : [n]i64 =
  if n <= 5 then xs else copy xs with [5] = 0

#[noinline]
def tri (x: i64) : i64 =
  let xs = bump (iota x)
  in i64.sum xs

def main (xs: []i64) : []i64 = map tri xs
