-- A size a function's body binds is existential in its result: each
-- call gives a fresh size, so two calls' results do not zip, even with
-- equal arguments (Note [Existential results]).
-- ==
-- error: Sizes .* do not match

def grow (x: i64) = let y = x + 1 in replicate y 0i32

def main (a: i64) = zip (grow a) (grow a)
