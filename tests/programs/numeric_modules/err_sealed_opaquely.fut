-- A built-in module sealed opaquely cannot be: its members have no
-- definitions to give the new abstract type.
-- ==
-- error: a built-in module cannot be sealed
module I: integral = i32
def main (x: i32) = x
