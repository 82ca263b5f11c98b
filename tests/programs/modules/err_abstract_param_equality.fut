-- An abstract type with a type parameter does not support equality
-- either, whatever its argument.
-- ==
-- error: Type M.box does not support equality

module M : { type box 'a val mk 'a : a -> box a } = {
  type box 'a = (a, i32)
  def mk 'a (x: a) : box a = (x, 0)
}

def main (z: i32) = M.mk z == M.mk 3
