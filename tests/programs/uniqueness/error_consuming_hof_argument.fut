-- A function that consumes its argument may not be passed for a
-- higher-order parameter that does not.
-- ==
-- error: Non-consuming higher-order parameter passed consuming argument
def twice 'a (f: a -> a) (x: a) = f (f x)

def bump (xs: *[]i32) = xs with [0] = 1

def main (xs: *[]i32) = twice bump xs
