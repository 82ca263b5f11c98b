-- Recursive functions are not allowed: the name is not in scope in its own body.
-- ==
-- error: Unknown name "fact"
def fact (n: i32): i32 = if n == 0 then 1 else n * fact (n - 1)

def main (x: i32): i32 = fact x
