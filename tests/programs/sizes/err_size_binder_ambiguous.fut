-- The rows of an empty array have no size that a size binder could read
-- (Note [Ambiguous size binders]).
-- ==
-- error: Ambiguous size "m"

def main =
  let [n][m] (xss: [n][m]i64) = []
  in (n, m)
