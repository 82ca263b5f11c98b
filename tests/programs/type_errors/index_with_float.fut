-- Array indices must be integers.
-- ==
-- error: an index must be of an integer type, found a value of type `f32`
def main (xs: []i32) (x: f32): i32 = xs[x]
