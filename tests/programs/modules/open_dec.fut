-- `open` brings a module's names into scope.
-- ==
-- input { 4 } output { 17 }

module M = {
  def sq (x: i32) = x * x
  def one = 1
}

open M

def main (x: i32) = sq x + one
