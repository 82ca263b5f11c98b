-- Summing random arrays; expected outputs are computed by a reference run.
-- ==
-- random input { [100]i32 }
-- auto output
-- random input { [1000]i32 }
-- auto output
def main (xs: []i32): i32 = i32.sum xs
