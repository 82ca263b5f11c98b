-- `M.(e)`: a local open.
-- ==
-- input { 2 } output { 30 }

module V = {
  def a = 3
  def b = 4
  def mul (x: i32) (y: i32) = x * y
}

def main (x: i32) = V.(mul (a + x) (b + 2))
