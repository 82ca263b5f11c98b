-- A type error in an imported file is reported (in that file).
-- ==
-- error: expected

import "lib/bad_type"

def main (x: i32) = x
