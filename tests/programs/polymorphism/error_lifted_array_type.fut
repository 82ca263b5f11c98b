-- An array type whose elements are of a lifted type parameter is not
-- allowed.
-- ==
-- error: put in an array
def first '^a [n] (xs: [n]a): a = xs[0]

def main (xs: []i32): i32 = first xs
