-- `not` negates a bool (and maps); `break` and `opaque` are the identity.
-- ==
-- input { [true, false, true] }
-- output { [false, true, false] false true [true, false, true] [true, false, true] }
def main (bs: []bool) = (map not bs, not true, not false, break bs, opaque bs)
