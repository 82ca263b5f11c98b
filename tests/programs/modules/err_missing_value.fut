-- A structure that lacks a value its module type asks for.
-- ==
-- error: missing value `get`

module type S = {
  type t
  val mk : i32 -> t
  val get : t -> i32
}

module M : S = {
  type t = i32
  def mk (x: i32) = x
}

def main (x: i32) = x
