-- An abstract type with a type parameter is not the type behind it.
-- ==
-- error: expected

module type BOX = {
  type box 'a
  val box 'a : a -> box a
}

module Box : BOX = {
  type box 'a = (a, a)
  def box 'a (x: a) : box a = (x, x)
}

def main (x: i32) : i32 = (Box.box x).0
