-- Array indices must be integers.
-- ==
-- error: expected
def main (xs: []i32) (x: f32): i32 = xs[x]
