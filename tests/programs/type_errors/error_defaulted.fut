-- A top-level definition whose only constraint is an overloaded operator
-- defaults to i32; a use at f64 then fails, and the error says where the
-- default came from (Note [Defaulting]).
-- ==
-- error: Default: the type of `example` was ambiguous here, so it defaulted to `i32`

def example a b = a + b

def main (x: f64) = example x 1.0
