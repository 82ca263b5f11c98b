-- The types of the argument and the result may not hold functions (the
-- type checker says so; the interpreter would say it names `vjp` too).
-- ==
-- error: `vjp2` cannot be instantiated with `f64 -> f64`
def main (x: f64) = (vjp2 (\(g: f64 -> f64) -> g x) (\y -> y) 1).0
