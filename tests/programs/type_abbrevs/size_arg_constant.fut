-- A size argument of an abbreviation may name a top-level constant of a
-- module.
-- ==
-- input { } output { [0i64, 1i64] }

type ints [n] = [n]i64

module M = {
  def k = 2i64
  type k_ints = ints [k]
  def make : k_ints = iota k
}

def main = M.make
