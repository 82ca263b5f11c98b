-- `unflatten` needs an argument whose size has the form `n*m`; a plain
-- size does not say what `n` and `m` are.
-- ==
-- error: expected an array of size `n\*m`
def main [k] (xs: [k]i32): [][]i32 = unflatten xs
