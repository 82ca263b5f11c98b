-- `include` in a module type adds another module type's specs.
-- ==
-- input { 10 } output { 11 9 }

module type HAS_INC = { type t val inc : t -> t }
module type HAS_BOTH = { include HAS_INC val dec : t -> t }

module M : HAS_BOTH with t = i32 = {
  type t = i32
  def inc (x: i32) = x + 1
  def dec (x: i32) = x - 1
}

def main (x: i32) = (M.inc x, M.dec x)
