-- Only a structure can be opened.
-- ==
-- error: expected a structure

module F (P: {}) = { def x = 1 }

open F

def main (z: i32) = z
