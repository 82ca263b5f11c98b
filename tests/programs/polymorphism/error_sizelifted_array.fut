-- A size-lifted type parameter may stand for a type with anonymous sizes:
-- its values cannot be array elements.
-- ==
-- error: put in an array
def pair_up '~a (x: a) (y: a) = [x, y]

def main (x: i32): i32 = (pair_up x x)[1]
