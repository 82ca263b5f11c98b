-- A value whose record type lacks a field its specification has.
-- ==
-- error: does not match
module type point = {
  val origin: {x: f32, y: f32}
}

module P: point = {
  def origin = {x = 0f32}
}

def main (x: f32): f32 = P.origin.x + x
