-- Both arguments of `pair` have the one type `a`.
-- ==
-- error: expected
def pair 'a (x: a) (y: a): (a, a) = (x, y)

def main (x: i32): (i32, i32) = pair x true
