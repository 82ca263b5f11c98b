-- A typed hole `???` takes the type its context wants; evaluating it is
-- a run-time error, in the interpreter and in compiled programs (an
-- assertion that fails, with the hole's location).
-- ==
-- input { 3 }
-- output { 3 }
-- input { -1 }
-- error: typed hole
def f (x: i32): i32 = if x > 0 then x else ???
def main (x: i32) = f x

-- A hole of a tuple type with an array in it.
-- ==
-- entry: arrays
-- input { 2i64 3 }
-- output { [1f32, 1f32] 3 true }
-- input { 2i64 0 }
-- error: typed hole
def g (n: i64) (x: i32) : ([n]f32, i32, bool) = if x > 0 then (replicate n 1, x, true) else ???
entry arrays (n: i64) (x: i32) = g n x
