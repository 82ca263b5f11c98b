-- An entry point's size parameter must come from its arguments: the
-- caller outside the program cannot choose a result size.
-- ==
-- error: Entry point functions must not be size-polymorphic in their return type

entry main [n] (x: i32) : [n]i32 = replicate n x
