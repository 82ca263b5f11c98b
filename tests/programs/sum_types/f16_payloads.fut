-- f16 payloads in a sum type, matched by an f16 literal pattern and a
-- binding, and f16 fields in a record updated with `with`.
-- ==
-- input { [0.5f16, 2.0f16, -1.0f16, f16.nan] }
-- output { [1, 2, 3, 0] 1.5f16 0.75f16 }
type reading = #temp f16 | #none

def classify (r: reading): i32 =
  match r
  case #temp 0.5 -> 1
  case #temp t -> if t > 0 then 2 else 3
  case #none -> 0

def main (xs: []f16): ([]i32, f16, f16) =
  let rs = map (\x -> if f16.isnan x then #none else #temp x) xs
  let r = {lo = xs[0], hi = xs[1]}
  let r = r with lo = r.lo + 1
  in (map classify rs, r.lo, r.hi * 0.375)
