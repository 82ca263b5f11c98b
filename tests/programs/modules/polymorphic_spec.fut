-- A polymorphic value in a module type.
-- ==
-- input { 3 true } output { 3 true }

module type ID = { val id 'a : a -> a }

module I : ID = { def id 'a (x: a) = x }

def main (x: i32) (b: bool) = (I.id x, I.id b)
