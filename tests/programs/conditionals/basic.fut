-- A simple if-then-else.
-- ==
-- input { -5 }
-- output { 5 }
-- input { 7 }
-- output { 7 }
-- input { 0 }
-- output { 0 }
def main (x: i32): i32 = if x < 0 then -x else x
