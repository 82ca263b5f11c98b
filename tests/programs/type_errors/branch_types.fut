-- The branches of a conditional must have the same type.
-- ==
-- error: expected
def main (b: bool): i32 = if b then 1i32 else 2.5f32
