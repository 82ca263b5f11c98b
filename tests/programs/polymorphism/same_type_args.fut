-- Arrays passed for parameters of one type parameter must have one
-- shape. Here the call makes the two anonymous sizes of `main`'s
-- parameters one inferred size, so the executable rejects arguments of
-- different lengths before the call; where the checker does not know the
-- sizes, compiled code checks them at the call ("differ in shape").
-- ==
-- input { [1, 2] [3, 4] }
-- output { [1, 2] [3, 4] }
-- compiled input { [1] [2, 3] }
-- error: differ in shape|another argument gives the size
def pair 't (x: t) (y: t) = (x, y)

def main (xs: []i32) (ys: []i32) = pair xs ys
