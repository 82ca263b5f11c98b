-- A functor whose result has a polymorphic function using the
-- parameter's operations, applied to two anonymous structures.
-- ==
-- input { [3, -1, 4] }
-- output { 6i64 4.0f32 2i64 }
-- input { empty([0]i32) }
-- output { 0i64 -f32.inf 0i64 }
module type monoid = {
  type t
  val op: t -> t -> t
  val ne: t
}

module Fold (M: monoid) = {
  def fold_map 'a (f: a -> M.t) (xs: []a): M.t = reduce M.op M.ne (map f xs)
}

module Sum = Fold {
  type t = i64
  def op (x: i64) (y: i64): i64 = x + y
  def ne = 0i64
}

module Max = Fold {
  type t = f32
  def op = f32.max
  def ne = -f32.inf
}

def main (xs: []i32): (i64, f32, i64) =
  (Sum.fold_map i64.i32 xs, Max.fold_map f32.i32 xs, Sum.fold_map (\b -> if b then 1 else 0) (map (> 0) xs))
