-- Operators as names: `val + : t -> t -> t` in a module type, and
-- parameters that are operators, `(+)` and `((<=): t -> t -> bool)`.
-- ==
-- input { 3 5 } output { 15 3 5 8 }

module type monoid = {
  type t
  val + : t -> t -> t
  val zero : t
}

module mul : monoid with t = i32 = {
  type t = i32
  def (+) (x: i32) (y: i32) = x * y
  def zero = 1i32
}

def apply (+) (x: i32) (y: i32) = x + y
def pick ((<=): i32 -> i32 -> bool) (a: i32) (b: i32) = if a <= b then a else b

entry main (x: i32) (y: i32) =
  (apply (*) x y, pick (<=) x y, pick (>=) x y, x mul.+ mul.zero + y)
