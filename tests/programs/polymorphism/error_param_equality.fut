-- A type parameter does not support equality.
-- ==
-- error: Type a does not support equality

def member 'a (x: a) (xs: []a) = any (== x) xs

def main (xs: []i32) = member 2 xs
