-- A parametric type abbreviation.
-- ==
-- input { 2 5 }
-- output { 5 2 }
type pair 'a = (a, a)

def swap (p: pair i32): pair i32 = (p.1, p.0)

def main (a: i32) (b: i32): (i32, i32) = swap (a, b)
