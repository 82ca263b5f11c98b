-- Branches of different known sizes give the `if` a fresh size, which is
-- not either branch's and not any other size (Note [Existential sizes]).
-- ==
-- error: Sizes "2" and "\?k[0-9]+" do not match.*branches have sizes \[n\] and \[m\]

def main (b: bool) (n: i64) (m: i64) : [2]i64 =
  if b then iota n else iota m
