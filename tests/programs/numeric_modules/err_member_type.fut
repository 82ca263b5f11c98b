-- A derived member applied to the wrong type.
-- ==
-- error: expected

def main (xs: []i32) = f32.sum xs
