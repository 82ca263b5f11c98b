-- Top-level functions calling each other.
-- ==
-- input { 4 }
-- output { 33 }
def square (x: i32): i32 = x * x
def inc (x: i32): i32 = x + 1
def f (x: i32): i32 = inc (square x) * 2 - 1

def main (x: i32): i32 = f x
