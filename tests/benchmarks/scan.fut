-- Inclusive scan of i32 (anchor: torch.cumsum).
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
-- notest random input { [100000000]i32 }
def main (xs: []i32): []i32 = scan (+) 0 xs
