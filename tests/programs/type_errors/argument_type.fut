-- A function argument of the wrong type.
-- ==
-- error: expected
def f (x: f64): f64 = x * 2

def main (b: bool): f64 = f b
