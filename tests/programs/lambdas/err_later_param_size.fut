-- A parameter's size cannot be a later parameter.
-- ==
-- error: later parameter.*scope-violation

def main (k: i64) = (\xs n -> length (zip xs (iota n))) (iota k) k
