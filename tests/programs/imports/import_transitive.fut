-- An imported file that imports another; the same file imported twice
-- is loaded once.
-- ==
-- input { 2 } output { 16 4 }

import "lib/uses_util"
import "lib/util"

def main (x: i32) = (fourth x, square x)
