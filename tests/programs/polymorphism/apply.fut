-- A polymorphic apply function whose argument and result types differ.
-- ==
-- input { 7 }
-- output { true 7i64 }
def apply 'a 'b (f: a -> b) (x: a): b = f x

def main (x: i32): (bool, i64) = (apply (\y -> y > 0) x, apply i64.i32 x)
