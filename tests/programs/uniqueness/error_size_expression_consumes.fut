-- A size expression may not consume: it is evaluated where the type is
-- used.
-- ==
-- error: Consuming "ns", which is not consumable

def consume (xs: *[]i64) : i64 = xs[0]

def f [n] (ns: *[n]i64) (xs: [consume ns]f32) = xs[0]
