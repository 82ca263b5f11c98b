-- What a file imports is not visible to files that import it.
-- ==
-- error: Unknown name "square"

import "lib/sub/deep"

def main (x: i32) = square x
