-- An abstract type does not support equality: what it stands for is
-- hidden (Note [Equality types]). See err_abstract_param_equality.fut for
-- one with a type parameter.
-- ==
-- error: Type M.t does not support equality

module type S = { type t val mk : i32 -> t }

module M : S = { type t = i32 def mk (x: i32) = x * 10 }

def main (z: i32) = M.mk z == M.mk 3
