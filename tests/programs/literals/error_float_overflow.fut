-- An unsuffixed float literal beyond the type's largest finite value is
-- an error, not an infinity.
-- ==
-- error: out of bounds for type `f32`

def main : f32 = -1e40
