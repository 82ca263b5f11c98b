-- A type with the wrong number of parameters for its spec.
-- ==
-- error: does not match

module type S = { type t 'a }

module M : S = { type t = i32 }

def main (z: i32) = z
