-- A float module does not match `integral`.
-- ==
-- error: missing

module bits (M: integral) = { def f (x: M.t) = M.popc x }
module b = bits f32

def main (x: f32) = b.f x
