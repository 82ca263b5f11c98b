-- An existential size must be the size of an array outside function
-- types, where a value carries it (Note [Constructive size use]).
-- ==
-- error: Existential size "n" not used as array size

def f (b: bool) : ?[n].bool -> [n]bool = \(x: bool) -> [x, b]

def main (b: bool) = length (f b true)
