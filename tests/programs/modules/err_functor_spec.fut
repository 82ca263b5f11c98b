-- A structure where a module type asks for a parametric module.
-- ==
-- error: missing parametric module `Scale`

module type VAL = { val v : i32 }
module type FUN = { val f : i32 -> i32 }

module type LIB = { module Scale : (P: VAL) -> FUN }

module Lib : LIB = { module Scale = { def f (x: i32) = x } }

def main (x: i32) = x
