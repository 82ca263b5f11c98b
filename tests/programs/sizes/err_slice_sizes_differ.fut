-- `xs[1:]` has size `n-1`, `ys[1:]` size `m-1`: they differ as
-- polynomials, so they do not match (as in Futhark).
-- ==
-- error: Sizes "n - 1" and "m - 1" do not match

def main [n] [m] (xs: [n]i32) (ys: [m]i32) = zip xs[1:] ys[1:]
