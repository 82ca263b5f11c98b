-- and and or on boolean arrays.
-- ==
-- input { [true, true] }
-- output { true true }
-- input { [true, false] }
-- output { false true }
-- input { [false, false] }
-- output { false false }
def main (bs: []bool): (bool, bool) = (and bs, or bs)
