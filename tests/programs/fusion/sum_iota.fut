-- A map over iota and its sum: one redomap.
-- ==
-- input { 10i64 }
-- output { 285i64 }
-- structure { Screma 1 Redomap 1 }

def main (n: i64): i64 = reduce (+) 0 (map (\i -> i * i) (iota n))
