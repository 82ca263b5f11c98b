-- A type with a type parameter in a module type (transparent).
-- ==
-- input { 4 } output { 4 5 }

module type PAIRS = {
  type pair 'a = (a, a)
  val mk 'a : a -> a -> pair a
}

module P : PAIRS = {
  type pair 'a = (a, a)
  def mk 'a (x: a) (y: a) : pair a = (x, y)
}

def main (x: i32) : (i32, i32) = P.mk x (x + 1)
