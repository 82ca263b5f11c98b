-- A polymorphic higher-order function applied to lambdas.
-- ==
-- input { 3 }
-- output { 5 12 }
def twice 'a (f: a -> a) (x: a): a = f (f x)

def main (x: i32): (i32, i32) = (twice (+1) x, twice (\y -> y * 2) x)
