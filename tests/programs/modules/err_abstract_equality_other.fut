-- A value of an abstract type is not a value of another abstract type.
-- ==
-- error: expected

module type S = { type t val zero : t }

module A : S = { type t = i32 def zero = 0 }
module B : S = { type t = i32 def zero = 0 }

def main (z: i32) = let x: A.t = B.zero in z
