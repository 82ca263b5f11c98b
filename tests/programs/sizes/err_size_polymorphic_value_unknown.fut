-- A size-polymorphic value binding may not have a size it makes up
-- itself: `filter`'s result would have a different size at each use.
-- ==
-- error: "foo" is a size-polymorphic value binding

def foo [n] = (iota n, filter (> 5) (iota n))

def main = 0i32
