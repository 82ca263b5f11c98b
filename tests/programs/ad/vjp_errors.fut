-- A cotangent of another shape than the result is an error that names
-- `vjp`: `filter`'s result has a size of its own, here 2, and the
-- cotangent has 3 elements.
-- ==
-- input { [1.0, 2.0, 3.0] }
-- error: vjp: the cotangent does not have the shape of the function's result

def main (xs: []f64) = vjp (\zs -> filter (> 1) zs) xs xs
