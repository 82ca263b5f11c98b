-- A declared existential result (`?[m].`) is a fresh size at each call,
-- even where the body's size is a parameter's.
-- ==
-- error: Sizes .* do not match

def hide (n: i64) : ?[m].[m]i64 = iota n

def main (n: i64) = zip (hide n) (hide n)
