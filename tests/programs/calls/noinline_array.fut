-- A function kept a call that returns arrays it makes itself and an
-- array it was given (which the call must not hand over as its own).
-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] [1, 2, 3] [3, 2, 1] 12 }
-- structure { Apply 3 }

#[noinline]
def double_and_keep [n] (xs: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  (map (* 2) xs, xs, reverse xs)

def main (xs: []i32) =
  let (ys, zs, rs) = double_and_keep xs
  let (ws, _, _) = double_and_keep ys
  in (ys, zs, rs, i32.sum ws / 2)

-- A loop whose body calls it: the block each call returns is carried to
-- the next iteration, which frees it (Note [Carried blocks]).
-- ==
-- entry: iterate
-- input { 3i64 [1, 2] } output { [8, 16] }
-- input { 0i64 [1, 2] } output { [1, 2] }

#[noinline]
def double [n] (xs: [n]i32) : [n]i32 = map (* 2) xs

entry iterate (k: i64) (xs: []i32) = loop xs for _i < k do double xs
