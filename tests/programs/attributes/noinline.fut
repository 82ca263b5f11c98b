-- The #[noinline] attribute on a function declaration.
-- ==
-- input { [1, 2, 3] }
-- output { [3, 5, 7] }
#[noinline]
def g (x: i32): i32 = 2 * x + 1

def main (xs: []i32): []i32 = map g xs
