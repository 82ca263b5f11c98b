-- The abstract type of an imported sealed module cannot be used as its
-- representation.
-- ==
-- error: expected

import "lib/opaque"

def main (n: i32) = let (a, _) = Bag.add n Bag.empty in a
