-- A value of a lifted type parameter cannot be a loop parameter.
-- ==
-- error: loop parameters
def iterate '^a (n: i32) (f: a -> a) (x: a): a =
  loop acc = x for _i < n do f acc

def main (x: i32): i32 = iterate 3 (+ 2) x
