-- The arguments of an abstract type with a type parameter must agree.
-- ==
-- error: expected .*Box.box

module type BOX = {
  type box 'a
  val box 'a : a -> box a
  val unbox 'a : box a -> a
}

module Box : BOX = {
  type box 'a = a
  def box 'a (x: a) : box a = x
  def unbox 'a (x: box a) : a = x
}

def main (x: i32) : f32 =
  let b : Box.box f32 = Box.box x
  in Box.unbox b
