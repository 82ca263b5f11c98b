-- The prelude's intrinsic modules cannot be named by a program.
-- ==
-- error: unknown

def main (x: i32) = intrinsics.i32.max x 1
