-- `module N = M` gives another name to the same module.
-- ==
-- input { 7 } output { 8 }

module M = { def f (x: i32) = x + 1 }
module N = M

def main (x: i32) = N.f x
