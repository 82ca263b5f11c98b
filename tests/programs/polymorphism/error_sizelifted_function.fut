-- A size-lifted type parameter `'~a` cannot be instantiated with a
-- function type either.
-- ==
-- error: cannot be instantiated
def pick '~a (b: bool) (x: a) (y: a): a = if b then x else y

def main (b: bool) (x: i32): i32 = (pick b (+ 1) (* 2)) x
