-- Names in a structure shadow outer names; a local binding shadows a
-- module member with the same name inside the structure.
-- ==
-- input { 5 } output { 6 50 }

def f (x: i32) = x + 100

module M = {
  def f (x: i32) = x + 1
  def g (x: i32) = let f = x * 10 in f
}

def main (x: i32) = (M.f x, M.g x)
