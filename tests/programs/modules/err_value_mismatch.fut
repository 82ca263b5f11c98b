-- A value whose type does not match its spec.
-- ==
-- error: does not match

module type S = { val f : i32 -> i32 }

module M : S = { def f (x: f32) = x + 1 }

def main (x: i32) = M.f x
