-- A function guarding its precondition with assert.
-- ==
-- input { 7 2 }
-- output { 3 }
-- input { 7 0 }
-- error: Assertion is false
def safe_div (x: i32) (y: i32): i32 = assert (y != 0) (x / y)

def main (a: i32) (b: i32): i32 = safe_div a b
