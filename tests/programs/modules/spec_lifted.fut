-- A specification with lifted type parameters, matched by a definition
-- with lifted parameters, used at a function type.
-- ==
-- input { 5 }
-- output { 6 10 }
module type applier = {
  val apply '^a '^b : (a -> b) -> a -> b
}

module A : applier = {
  def apply '^a '^b (f: a -> b) (x: a): b = f x
}

def main (x: i32): (i32, i32) = (A.apply (+ 1) x, A.apply (\g -> g x) (* 2))
