-- Imports relative to the importing file, across folders.
-- ==
-- input { 2 } output { 9 }

import "lib/sub/deep"

def main (x: i32) = deep x
