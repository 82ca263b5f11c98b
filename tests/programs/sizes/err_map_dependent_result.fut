-- A function whose result size is its parameter cannot instantiate an
-- unlifted type parameter: `map`'s `'b` would be `[k]i64` for a different
-- `k` per element (Note [Dependent function types]).
-- ==
-- error: Cannot apply "map" to "row".*Type variable "b" of "map" cannot be instantiated with type containing anonymous sizes

def row (k: i64) : [k]i64 = iota k

def main (n: i64) = map row (iota n)
