-- A member the numeric module does not have.
-- ==
-- error: unknown name `f32.summ`: module `f32` has no `summ`

def main (xs: []f32) = f32.summ xs
