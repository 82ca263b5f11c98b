-- The components of an argument for a consuming tuple parameter may not
-- alias each other (error index `self-aliasing-arg`).
-- ==
-- error: Argument passed for consuming parameter is self-aliased

def g (t: *([]i64, []i64)) = t.0[0] + t.1[0]

def main (n: i64) =
  let x = iota n
  in g (x, x)
