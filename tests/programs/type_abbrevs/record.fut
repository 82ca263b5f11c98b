-- An abbreviation for a record type.
-- ==
-- input { 3 4 }
-- output { 25 }
type point = {x: i32, y: i32}

def norm2 (p: point): i32 = p.x * p.x + p.y * p.y

def main (a: i32) (b: i32): i32 = norm2 {x = a, y = b}
