-- Entry points are declared at the top level only.
-- ==
-- error: entry points

module M = { entry f (x: i32) = x }

def main (z: i32) = z
