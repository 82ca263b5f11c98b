-- The #[inline] attribute on a function declaration.
-- ==
-- input { 4 }
-- output { 17 }
#[inline]
def f (x: i32): i32 = x * x + 1

def main (x: i32): i32 = f x
