-- The type of a built-in module sealed opaquely is abstract: an `I.t` is
-- not an `i32`.
-- ==
-- error: found `I.t`

module I: integral = i32

def main (x: i32) : i32 = I.i32 x + 1
