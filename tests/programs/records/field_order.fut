-- Field order does not matter for record types.
-- ==
-- input { 1 2 }
-- output { 3 }
def f (r: {a: i32, b: i32}): i32 = r.a + r.b

def main (x: i32) (y: i32): i32 = f {b = y, a = x}
