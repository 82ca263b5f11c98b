-- A module spec inside a module type, and a nested module sealed with it.
-- ==
-- input { 3 } output { 6 }

module type INNER = { val f : i32 -> i32 }
module type OUTER = {
  module In : INNER
  val g : i32 -> i32
}

module O : OUTER = {
  module In = { def f (x: i32) = x * 2 def hidden = 0 }
  def g (x: i32) = In.f x
}

def main (x: i32) = O.In.f x
