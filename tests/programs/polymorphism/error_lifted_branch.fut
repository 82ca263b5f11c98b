-- A value of a lifted type parameter cannot be returned from an `if`.
-- ==
-- error: returned from the branches
def choose '^a (b: bool) (x: a) (y: a): a = if b then x else y

def main (b: bool) (x: i32): i32 = choose b x (x + 1)
