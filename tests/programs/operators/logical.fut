-- Logical and, or and not on booleans.
-- ==
-- input { true false }
-- output { false true false true }
-- input { true true }
-- output { true true false false }
def main (a: bool) (b: bool): (bool, bool, bool, bool) =
  (a && b, a || b, !a, a != b)
