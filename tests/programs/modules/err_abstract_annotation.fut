-- An abstract type cannot be given a value of the type behind it.
-- ==
-- error: expected

module type S = { type t val get : t -> i32 }

module M : S = { type t = i32 def get (x: t) = x }

def main (x: i32) : i32 = M.get x
