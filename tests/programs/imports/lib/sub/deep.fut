-- A library file in a subfolder that imports from its parent folder.

import "../util"

def deep (x: i32) = cube x + 1
