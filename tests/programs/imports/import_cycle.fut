-- An import cycle is an error.
-- ==
-- error: import cycle

import "lib/cycle_a"

def main (x: i32) = x + a
