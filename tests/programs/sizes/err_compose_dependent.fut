-- A lifted type parameter may stand for a type with a parameter-dependent
-- size, but that size may not then appear in a parameter of the result:
-- no value of type `[?]i64 -> c` for the size of each call could be made.
-- ==
-- error: Cannot apply "compose" to "iota".*Existential size would appear in function parameter of return type

def compose '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)

def main (n: i64) = compose iota length n
