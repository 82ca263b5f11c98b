-- A typed hole `???` takes the type its context wants; evaluating it is
-- a run-time error (the interpreter's). The compiled backends refuse a
-- program with a hole: `internalisation of a typed hole (`???`) is not
-- supported yet`.
-- ==
-- tags { no_cpu no_cuda }
-- input { 3 }
-- output { 3 }
-- input { -1 }
-- error: typed hole
def f (x: i32): i32 = if x > 0 then x else ???
def main (x: i32) = f x
