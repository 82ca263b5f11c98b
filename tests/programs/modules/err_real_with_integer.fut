-- An integer module is not a `real`.
-- ==
-- error: missing value

module Norm (R: real) = { def n (x: R.t) = R.sqrt x }

module Bad = Norm i32

def main (z: i32) = z
