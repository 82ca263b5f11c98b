-- A type defined differently from the module type's definition.
-- ==
-- error: does not match

module type S = { type t = i32 }

module M : S = { type t = i64 }

def main (x: i32) = x
