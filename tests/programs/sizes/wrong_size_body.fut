-- A function body whose size does not match the declared return size.
-- Disabled: futmlir checks sizes at run time only; static size checking is
-- future work (see frontend/src/check/mod.rs, Note [Sizes are checked at run time]).
-- ==
-- tags { disable }
-- error: expected
def f [n] (xs: [n]i32): [n]i32 = xs ++ xs

def main (xs: []i32): []i32 = f xs
