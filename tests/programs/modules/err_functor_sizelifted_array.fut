-- Inside a functor, an abstract type of its parameter declared
-- size-lifted (`type~`) is no array element: its values may differ in
-- size.
-- ==
-- error: size-lifted

module PM (P: { type~ a val f : i64 -> a }) = {
  def gen (n: i64) = tabulate n P.f
}

module M = PM { type~ a = []i64 def f (n: i64) = iota n }

def main (n: i64) = length (M.gen n)
