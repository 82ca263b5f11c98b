-- A polymorphic type abbreviation used with a polymorphic function.
-- ==
-- input { 2 3 }
-- output { 3 2 }
type pair 'a = (a, a)

def flip_pair 'a (p: pair a): pair a = (p.1, p.0)

def main (x: i32) (y: i32): (i32, i32) = flip_pair (x, y)
