-- Two parameters sharing a size.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { 32 }
def dot [n] (xs: [n]i32) (ys: [n]i32): i32 = i32.sum (map2 (*) xs ys)

def main [n] (xs: [n]i32) (ys: [n]i32): i32 = dot xs ys
