-- Ascribing an unknown module type.
-- ==
-- error: unknown module type `S`

module M : S = { def x = 1 }

def main (y: i32) = y
