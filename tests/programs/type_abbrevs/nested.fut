-- Abbreviations defined in terms of other abbreviations.
-- ==
-- input { 1 2 4 6 }
-- output { 3 4 }
type ipair = (i32, i32)
type line = (ipair, ipair)

def delta (l: line): ipair = (l.1.0 - l.0.0, l.1.1 - l.0.1)

def main (a: i32) (b: i32) (c: i32) (d: i32): (i32, i32) = delta ((a, b), (c, d))
