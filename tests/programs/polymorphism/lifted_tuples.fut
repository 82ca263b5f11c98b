-- Lifted type parameters instantiated with tuples and records that hold
-- functions.
-- ==
-- input { 4 }
-- output { 12 5 }
-- input { 0 }
-- output { 0 1 }
def swap '^a '^b (p: (a, b)): (b, a) = (p.1, p.0)

def apply_pair '^a (p: (a -> i32, a)): i32 = p.0 p.1

def main (x: i32): (i32, i32) =
  let (f, y) = swap (x, (* 3))
  in (f y, apply_pair ((\(r: {a: i32, b: i32}) -> r.a + r.b), {a = x, b = 1}))
