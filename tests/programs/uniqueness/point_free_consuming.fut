-- A point-free entry point of a consuming function consumes its
-- (eta-expanded) parameter as the function does.
-- ==
-- input { [1, 2, 3] } output { [0, 2, 3] }
def zero_first (xs: *[]i32) : *[]i32 = xs with [0] = 0

entry main = zero_first
