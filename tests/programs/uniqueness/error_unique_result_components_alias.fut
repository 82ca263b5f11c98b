-- Two unique components of a function's result may not alias each other
-- (error index `unique-return-aliased`), also where a call builds the
-- tuple: `dup`'s components both alias its parameter.
-- ==
-- error: A unique-typed component of the return value of "main" is aliased to some other component

def dup (x: []i32) = (x, x)

def main (xs: []i32) : (*[]i32, *[]i32) = dup (copy xs)
