-- A structure that lacks a type its module type asks for.
-- ==
-- error: missing type `t`

module type S = { type t val x : i32 }

module M : S = { def x = 1 }

def main (y: i32) = y + M.x
