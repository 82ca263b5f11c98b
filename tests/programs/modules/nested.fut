-- Nested structures and `M.N.x` names.
-- ==
-- input { 5 } output { 15 50 }

module Outer = {
  def k = 10
  module Inner = {
    def add (x: i32) = x + k
    def scale (x: i32) = x * k
  }
  def both (x: i32) = Inner.add x
}

def main (x: i32) = (Outer.Inner.add x, Outer.Inner.scale x)
