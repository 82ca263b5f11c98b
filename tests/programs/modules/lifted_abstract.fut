-- An abstract lifted type (`type^`) of a sealed module, standing for a
-- function type: made, combined and applied through the module.
-- ==
-- input { 5 }
-- output { 8 16 }
module type op = {
  type^ f
  val add: i32 -> f
  val seq: f -> f -> f
  val run: f -> i32 -> i32
}

module M: op = {
  type^ f = i32 -> i32
  def add (k: i32): f = (+ k)
  def seq (g: f) (h: f): f = \x -> h (g x)
  def run (g: f) (x: i32): i32 = g x
}

def main (x: i32): (i32, i32) =
  let g = M.seq (M.add 1) (M.add 2)
  in (M.run g x, M.run (M.seq g g) (x + 5))
