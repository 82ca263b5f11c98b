-- `with` on a type the module type does not declare.
-- ==
-- error: unknown type `u`

module type S = { type t }

module M : S with u = i32 = { type t = i32 }

def main (z: i32) = z
