-- The other half of an import cycle.

import "cycle_a"

def b = 2
