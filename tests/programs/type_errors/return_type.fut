-- The body must match the declared return type.
-- ==
-- error: expected
def main (x: i32): f32 = x
