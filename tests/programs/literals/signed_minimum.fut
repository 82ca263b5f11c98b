-- The most negative value of a signed type is a negated unsuffixed
-- literal; the largest values of each type fit too.
-- ==
-- input { 1i8 } output { -127i8 127i8 -2147483648 255u8 0u8 3.0e38f32 }

def main (x: i8) = (x + -128, 127: i8, -2147483648: i32, 255: u8, -0: u8, 3e38: f32)
