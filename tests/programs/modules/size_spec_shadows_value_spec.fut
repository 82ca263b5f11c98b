-- A name bound in the specification's type shadows a value spec.
-- ==
-- input { 2i64 } output { [0i64, 1i64] }
module type mk = {
  val n : i64
  val make : (n: i64) -> [n]i64
}

module m : mk = {
  def n = 5i64
  def make (n: i64) : [n]i64 = iota n
}

def main (k: i64) = m.make k
