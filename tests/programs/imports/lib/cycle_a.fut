-- Half of an import cycle (used by `import_cycle.fut`).

import "cycle_b"

def a = 1
