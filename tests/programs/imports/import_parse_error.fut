-- A syntax error in an imported file is reported (in that file).
-- ==
-- error: expected

import "lib/bad_syntax"

def main (x: i32) = x
