-- Tuples as function arguments and results.
-- ==
-- input { 1.5f32 2 }
-- output { 2 1.5f32 }
def swap (p: (f32, i32)): (i32, f32) = (p.1, p.0)

def main (a: f32) (b: i32): (i32, f32) = swap (a, b)
