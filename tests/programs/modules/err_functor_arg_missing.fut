-- A functor argument that lacks a value of the parameter's module type.
-- ==
-- error: missing value `op`

module type MONOID = { type t val ne : t val op : t -> t -> t }

module F (M: MONOID) = { def z = M.ne }

module X = F { type t = i32 def ne = 0 }

def main (x: i32) = x + X.z
