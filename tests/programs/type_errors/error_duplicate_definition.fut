-- One module body defines a name once.
-- ==
-- error: Duplicate definition of value `f`
module m = {
  def f (x: i32) = x
  def f (x: i32) = x + 1
}

def main (x: i32) = m.f x
