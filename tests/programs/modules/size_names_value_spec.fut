-- A size in a module type may name a value the module type declares
-- before it; matching and functor parameters put the module's value
-- there. See Note [Sizes naming a value spec].
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64] 6i32 3i64 }
module type sized = {
  val k : i64
  type vec = [k]i64
  val zeros : [k]i32
}

module three : sized = {
  def k = 3i64
  type vec = [k]i64
  def zeros : [k]i32 = replicate k 2
}

module sum_of (P: sized) = {
  def total = i32.sum P.zeros
  def len (v: P.vec) = length v
}

module S = sum_of three

def main (n: i64) =
  let v = iota n :> three.vec
  in (v, S.total, S.len v)
