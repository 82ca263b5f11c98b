-- Arithmetic on constants folds, identities go: one multiplication of the
-- argument is left of `x * (2 + 1) * 1 + 0 - (4 - 4)`.
-- ==
-- input { 5 } output { 15 }
-- structure { BinOp 1 Constant 1 }

def main (x: i32): i32 = x * (2 + 1) * 1 + 0 - (4 - 4)
