-- A type the signature defines stays visible through the ascription.
-- ==
-- input { 2.5f32 } output { 5.0f32 }

module type S = {
  type t = f32
  val twice : t -> t
}

module M : S = {
  type t = f32
  def twice (x: t) = x + x
}

def main (x: f32) : f32 = M.twice x
