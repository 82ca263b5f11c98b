-- A `local module` at the top level, opened.
-- ==
-- input { 4 } output { 20 }

local module Helpers = {
  def times5 (x: i32) = x * 5
}

open Helpers

def main (x: i32) = times5 x
