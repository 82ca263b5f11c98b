-- The first argument fixes `n` to 4; the second has size 3.
-- ==
-- error: expected
def dot [n] (xs: [n]i32) (ys: [n]i32): i32 = i32.sum (map2 (*) xs ys)

def main (x: i32): i32 = dot [x, x, x, x] [1, 2, 3]
