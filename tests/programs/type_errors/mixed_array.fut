-- Array literal elements must all have the same type.
-- ==
-- error: expected
def main (x: i32): []i32 = [x, true]
