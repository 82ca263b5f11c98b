-- An unlifted type parameter `'a` cannot be instantiated with a function
-- type (`'^a` would allow it).
-- ==
-- error: cannot be instantiated
def apply_twice 'a (f: a -> a) (x: a): a = f (f x)

def main (x: i32): i32 =
  let g = apply_twice (\(h: i32 -> i32) -> \y -> h (h y)) (+ 1)
  in g x
