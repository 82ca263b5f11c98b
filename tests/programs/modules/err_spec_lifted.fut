-- A specification with a lifted type parameter is not matched by a
-- definition whose parameter is unlifted (the definition could not be
-- applied to functions).
-- ==
-- error: does not match
module type applier = {
  val apply '^a : (a -> a) -> a -> a
}

module A : applier = {
  def apply 'a (f: a -> a) (x: a): a = f x
}

def main (x: i32): i32 = A.apply (+ 1) x
