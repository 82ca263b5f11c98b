-- Importing a file that does not exist.
-- ==
-- error: unknown file

import "lib/no_such_file"

def main (x: i32) = x
