-- An empty array built in polymorphic code gets the inner sizes of the
-- entry point's result type (`[0][x]`), with the parameters' values.
-- The compiled backends lose the inner size here (a later issue).
-- ==
-- tags { no_cpu no_cuda }
-- input { 2i64 } output { 2i64 empty([0][2]i32) }

def empty 'a (x: i64) = (x, [] : [0]a)

entry main x : (i64, [][x]i32) = empty x
