-- Top-level constants.
-- ==
-- input { 2 }
-- output { 84 }
def k: i32 = 42
def table = [1, 2, 3]

def main (x: i32): i32 = k * x + table[0] - 1
