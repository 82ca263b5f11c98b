-- A module type defined inside a structure, named by a qualified name.
-- ==
-- input { 2 } output { 102 }

module Lib = {
  module type HAS = { val base : i32 }
  def add_base (x: i32) = x + 100
}

module B : Lib.HAS = { def base = 100 }

def main (x: i32) = Lib.add_base x + B.base - 100
