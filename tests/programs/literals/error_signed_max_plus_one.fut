-- `128` fits an `i8` only negated.
-- ==
-- error: Literal 128 out of bounds for type `i8`

def main : i8 = 128
