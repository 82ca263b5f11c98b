-- Updating a slice `i:i+1` with `replicate 1 v` is updating element `i`:
-- the slice's size folds to 1, its size check holds, and the copy loop of
-- one iteration reads the replicated value. Only the bounds check stays.
-- ==
-- input { [1, 2, 3, 4] 2i64 42 } output { [1, 2, 42, 4] }
-- input { [1, 2, 3, 4] 4i64 42 } error: out of bounds
-- structure { Replicate 0 Assert 1 Loop 0 }

def main (xs: *[]i32) (i: i64) (v: i32): []i32 =
  xs with [i:i + 1] = replicate 1 v
