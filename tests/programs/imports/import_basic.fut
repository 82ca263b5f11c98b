-- `import` brings a file's top-level definitions into scope.
-- ==
-- input { 3 } output { 9 27 }

import "lib/util"

def main (x: i32) = (square x, cube x)
