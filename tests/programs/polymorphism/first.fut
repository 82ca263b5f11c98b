-- A polymorphic function returning an array element.
-- ==
-- input { [4, 5] [1.5f32] }
-- output { 4 1.5f32 }
def first 't (xs: []t): t = xs[0]

def main (xs: []i32) (ys: []f32): (i32, f32) = (first xs, first ys)
