-- A typed hole of function type, applied, fails when evaluated (also in
-- compiled programs).
-- ==
-- input { 0i64 }
-- error: hole
def main (x: i64) : bool = ??? x x
