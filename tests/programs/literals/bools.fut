-- Boolean literals.
-- ==
-- input { true }
-- output { true false true }
-- input { false }
-- output { false false false }
def main (b: bool): (bool, bool, bool) =
  (b && true, b && false, b || false)
