-- A `[]` in a parameter of a function-typed parameter is inferred: fixed
-- by the body (`ap`), or a size parameter of the function (`twice`),
-- while a `[]` in a function type's result is an existential size.
-- ==
-- input { 5i32 }
-- output { 5i32 6i32 3i64 }

def ap (f: i64 -> []i32 -> i32) (k: i32) : i32 = f 0 [k]

def twice (f: []i32 -> i32) (xs: []i32) : i32 = f xs + 1

def grow (f: i64 -> []i32) (n: i64) : i64 = length (f n)

def main (k: i32) =
  (ap (\i xs -> xs[i]) k, twice (\xs -> xs[0]) [k], grow (\n -> replicate n 0) 3)
