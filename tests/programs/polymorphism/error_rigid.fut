-- A type parameter is rigid: a function of type `a -> b` cannot return
-- its argument.
-- ==
-- error: expected
def coerce 'a 'b (x: a): b = x

def main (x: i32): f32 = coerce x
