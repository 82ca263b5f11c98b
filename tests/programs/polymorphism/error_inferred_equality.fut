-- A type inferred for `==`'s operands cannot become a type parameter:
-- type parameters do not support equality (Note [Equality types]).
-- ==
-- error: does not support equality
def same x = x == x

def main (x: i32): bool = same x
