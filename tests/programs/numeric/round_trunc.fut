-- f64.round and f64.trunc away from halfway cases.
-- ==
-- input { 2.75 }
-- output { 3.0 2.0 }
-- input { -1.25 }
-- output { -1.0 -1.0 }
-- input { -1.75 }
-- output { -2.0 -1.0 }
def main (x: f64): (f64, f64) = (f64.round x, f64.trunc x)
