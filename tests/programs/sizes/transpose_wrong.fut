-- A transposed matrix has its sizes swapped.
-- ==
-- error: expected
def f [n][m] (a: [n][m]i32): [n][m]i32 = transpose a

def main (a: [][]i32): [][]i32 = f a
