-- A literal parameter can fail to match: only `match` cases may.
-- ==
-- error: Refutable pattern not allowed here

def f (x: i32) 0 = x

def main (x: i32) = f x 0
