-- An unlifted abbreviation has one shape; `[]` needs `type~`.
-- ==
-- error: not declared size-lifted

type vec = []i32

def main (xs: []i32) = length xs
