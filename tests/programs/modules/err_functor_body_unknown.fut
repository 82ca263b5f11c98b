-- A functor's body may use only what its parameter's module type lists.
-- ==
-- error: unknown name `P.extra`

module type HAS_X = { val x : i32 }

module F (P: HAS_X) = { def y = P.x + P.extra }

module G = F { def x = 1 def extra = 2 }

def main (z: i32) = z + G.y
