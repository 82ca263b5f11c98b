-- Adding an i32 to an f32 is a type error.
-- ==
-- error: expected
def main (x: i32) (y: f32): f32 = x + y
