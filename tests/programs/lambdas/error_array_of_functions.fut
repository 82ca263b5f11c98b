-- An array literal cannot hold functions (Futhark has no arrays of
-- functions: defunctionalisation must know each function statically).
-- ==
-- error: put in an array
def main (x: i32): i32 =
  let fs = [(+ 1), (* 2)]
  in fs[1] x
