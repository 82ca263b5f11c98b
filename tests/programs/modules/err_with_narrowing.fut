-- `with` may not narrow a type: a lifted type parameter stays lifted.
-- ==
-- error: Cannot refine a type

module type has_t = { type t '^a }
module type has_t' = has_t with t 'a = a

def main (x: i32) = x
