-- `open import "..."` and `local open import "..."`, and an entry point
-- whose parameter type comes from an imported module.
-- ==
-- input { [1.0, 3.0] 2 } output { 2.0 4 }

open import "lib/util"
local open import "lib/monoid"

module Max = Reduce { type t = i32 def ne = i32.lowest def op = i32.max }

type vec = [2]f64

entry main (xs: vec) (x: i32) = (Stats.mean xs, Max.total [x, square x, 1])
