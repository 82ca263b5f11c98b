-- In `m.(e)` the module's names shadow the variables bound outside the
-- open (a parameter `x` here), and names bound inside `e` shadow the
-- module's. This once took the outer `x` (a wrong answer).
-- ==
-- input { 1 } output { 6 13 8 }

module m = {
  def x = 2i32
  def y = 3i32
  module n = { def x = 5i32 }
}

def main (x: i32) =
  (x + m.(x + y),
   m.(let y = 10 in x + y + x - 1),
   m.(x + n.(x + 1)))
