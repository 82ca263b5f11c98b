-- A sort parameterised over an ordering, applied to a record
-- type and to a built-in numeric module's ordering.
-- ==
-- input { [3, 1, 2] [2.5f32, -1.0f32, 0.0f32] } output { [3, 2, 1] [-1.0f32, 0.0f32, 2.5f32] }

module type ORDERED = {
  type t
  val (<=) : t -> t -> bool
}

module Sort (O: ORDERED) = {
  -- Odd-even transposition sort: n rounds of compare-and-swap.
  def sort [n] (xs: [n]O.t) : [n]O.t =
    loop xs for i < n do
      tabulate n (\k ->
        let p = if (k + i) % 2 == 0 then k + 1 else k - 1
        in if p < 0 || p >= n then xs[k]
           else if k < p then (if xs[k] O.<= xs[p] then xs[k] else xs[p])
           else (if xs[p] O.<= xs[k] then xs[k] else xs[p]))
}

module Desc = Sort { type t = i32 def (<=) (a: i32) (b: i32) = a >= b }
module F = Sort { type t = f32 def (<=) = (f32.<=) }

def main (xs: []i32) (ys: []f32) = (Desc.sort xs, F.sort ys)
