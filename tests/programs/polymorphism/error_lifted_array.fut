-- A value of a lifted type parameter `'^a` may be a function: it cannot
-- be put in an array.
-- ==
-- error: put in an array
def singleton '^a (x: a) = [x]

def main (x: i32): i32 = (singleton x)[0]
