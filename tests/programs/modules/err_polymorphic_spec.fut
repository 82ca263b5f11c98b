-- A monomorphic value does not match a polymorphic spec.
-- ==
-- error: does not match

module type ID = { val id 'a : a -> a }

module I : ID = { def id (x: i32) = x }

def main (x: i32) = x
