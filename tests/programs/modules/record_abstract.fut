-- An abstract type implemented by a record: outside the module only the
-- specified functions see it.
-- ==
-- input { 5 }
-- output { 15 3 }
module type counter = {
  type t
  val new: i32 -> t
  val bump: i32 -> t -> t
  val value: t -> i32
  val count: t -> i32
}

module C: counter = {
  type t = {total: i32, n: i32}
  def new (x: i32): t = {total = x, n = 0}
  def bump (k: i32) (c: t): t =
    let c = c with total = c.total + k
    in c with n = c.n + 1
  def value (c: t): i32 = c.total
  def count (c: t): i32 = c.n
}

def main (x: i32): (i32, i32) =
  let c = C.new x |> C.bump 1 |> C.bump 4 |> C.bump 5
  in (C.value c, C.count c)
