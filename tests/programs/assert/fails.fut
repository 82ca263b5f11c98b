-- A failing assertion is a run-time error.
-- ==
-- input { 3 }
-- output { 6 }
-- input { -3 }
-- error: Assertion is false
def main (x: i32): i32 = assert (x > 0) (x * 2)
