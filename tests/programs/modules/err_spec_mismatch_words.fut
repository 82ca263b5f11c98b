-- Futhark's words for a type that differs from its specification: what
-- the module defines, then what the module type requires.
-- ==
-- error: Module defines type s = i32, but module type requires type s = f32

module type T1 = { type t type s = t val a : s }
module X : T1 = { type t = f32 type s = i32 def a : s = 3 }

def main (x: i32) = x
