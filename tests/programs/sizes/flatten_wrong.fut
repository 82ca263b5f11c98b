-- A flattened `[n][m]` matrix does not have size `n`.
-- ==
-- error: expected
def f [n][m] (a: [n][m]i32): [n]i32 = flatten a

def main (a: [][]i32): []i32 = f a
