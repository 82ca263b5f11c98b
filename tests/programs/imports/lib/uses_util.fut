-- A library file that imports another one (relative to itself).

import "util"

def fourth (x: i32) = square (square x)
