-- A sealed module from another file stays sealed; entry points of an
-- imported file are ordinary functions.
-- ==
-- input { 4 } output { 4 4 }

import "lib/opaque"

def main (n: i32) =
  let b = loop b = Bag.empty for i < n do Bag.add i b
  in (Bag.count b, not_an_entry n)
