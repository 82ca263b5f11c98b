-- A module without the named value.
-- ==
-- error: unknown name `M.g`

module M = { def f (x: i32) = x }

def main (x: i32) = M.g x
