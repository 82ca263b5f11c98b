-- A module type is checked where it is declared, even if nothing uses
-- it: its specs may only name types in scope.
-- ==
-- error: Unknown type "a"

module type abc = {
  type x 'a
  val y : x a
}

def main (x: i32) = x
