-- A later definition shadows a name brought in by `open`, and a later
-- `open` shadows an earlier definition.
-- ==
-- input { 1 } output { 101 12 }

module A = { def f (x: i32) = x + 10 def g (x: i32) = x + 11 }

open A

def f (x: i32) = x + 100

def g (x: i32) = x + 1000

module B = { def g (x: i32) = x + 11 }
open B

def main (x: i32) = (f x, g x)
