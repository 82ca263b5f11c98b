-- f64.sqrt of perfect squares.
-- ==
-- input { [0.0, 1.0, 6.25, 144.0] }
-- output { [0.0, 1.0, 2.5, 12.0] }
def main (xs: []f64): []f64 = map f64.sqrt xs
