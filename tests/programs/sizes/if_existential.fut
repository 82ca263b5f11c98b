-- The branches of an `if` may have different sizes; the result then has
-- an existential size.
-- ==
-- input { true 3i64 5i64 }
-- output { 3i64 }
-- input { false 3i64 5i64 }
-- output { 5i64 }
def main (b: bool) (n: i64) (m: i64): i64 = length (if b then iota n else iota m)
