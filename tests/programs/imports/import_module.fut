-- A module defined in an imported file.
-- ==
-- input { [1.0, 2.0, 6.0] } output { 3.0 }

import "lib/util"

def main (xs: []f64) = Stats.mean xs
