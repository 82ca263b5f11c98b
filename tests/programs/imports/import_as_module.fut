-- `module M = import "path"` binds a file's definitions to a name.
-- ==
-- input { 5 } output { 25 }

module U = import "lib/util"

def main (x: i32) = U.square x
