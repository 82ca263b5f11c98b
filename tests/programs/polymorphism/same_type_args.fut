-- Arrays passed for parameters of one type parameter must have one
-- shape: the sizes of `[]i32` are not known statically, so compiled code
-- checks them at the call.
-- ==
-- input { [1, 2] [3, 4] }
-- output { [1, 2] [3, 4] }
-- compiled input { [1] [2, 3] }
-- error: differ in shape
def pair 't (x: t) (y: t) = (x, y)

def main (xs: []i32) (ys: []i32) = pair xs ys
