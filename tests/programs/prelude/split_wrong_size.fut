-- `split` needs an argument whose size has the form `n+m`.
-- ==
-- error: expected an array of size `n\+m`
def main (xs: []i32) = split (filter (>0) xs)
