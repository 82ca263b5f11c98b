-- A type parameter bound twice.
-- ==
-- error: Type parameter "t" also bound
def main 't 't (x: t) : t = x
