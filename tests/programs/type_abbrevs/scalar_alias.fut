-- An abbreviation for a scalar type used in signatures.
-- ==
-- input { [1.5, 2.5] }
-- output { 4.0 }
type real = f64

def total (xs: []real): real = f64.sum xs

def main (xs: []f64): f64 = total xs
