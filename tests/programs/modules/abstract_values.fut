-- Values of an abstract type can be kept in arrays and tuples, and passed
-- through polymorphic functions (but not compared with `==`:
-- err_abstract_equality.fut).
-- ==
-- input { 3 } output { 30 40 3 }

module type S = { type t val mk : i32 -> t val get : t -> i32 }

module M : S = { type t = i32 def mk (x: i32) = x * 10 def get (x: t) = x / 10 }

def main (z: i32) =
  let xs = map M.mk (iota (i64.i32 z) |> map i32.i64)
  let (a, b) = (M.mk z, M.mk (z + 1))
  in (M.get a * 10, M.get (id b) * 10, M.get (id a) + i32.i64 (length xs) - z)
