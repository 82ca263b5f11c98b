-- A sum type defined in a module; its constructors are used outside.
-- ==
-- input { 5 } output { 5 -1 }

module Opt = {
  type opt = #some i32 | #none
  def get_or (d: i32) (o: opt) = match o case #some x -> x case #none -> d
}

def main (x: i32) =
  let a : Opt.opt = #some x
  let b : Opt.opt = #none
  in (Opt.get_or (-1) a, Opt.get_or (-1) b)
