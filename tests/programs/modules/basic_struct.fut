-- A structure with values and a type; qualified names from outside.
-- ==
-- input { 3 } output { 7 16 }

module M = {
  type t = i32
  def two : t = 2
  def inc (x: t) : t = x + 1
  def double (x: t) : t = x * two
}

def main (x: i32) = (M.inc (M.double x), M.double (M.double (M.inc x)))
