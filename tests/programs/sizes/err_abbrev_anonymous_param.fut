-- An anonymous size in a function parameter of a type abbreviation is
-- read from nothing.
-- ==
-- error: anonymous size not used constructively

type^ pred = []bool -> bool

def main (xs: []bool) = length xs
