-- An abstract type that stands for a function type (`type^` in the
-- signature) cannot be an array element outside the module either.
-- ==
-- error: put in an array
module type op = {
  type^ f
  val mk: i32 -> f
  val run: f -> i32 -> i32
}

module M: op = {
  type^ f = i32 -> i32
  def mk (k: i32): f = (+ k)
  def run (g: f) (x: i32): i32 = g x
}

def main (x: i32): i32 =
  let fs = [M.mk 1, M.mk 2]
  in M.run fs[0] x
