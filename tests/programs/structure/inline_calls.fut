-- The default soac pipeline inlines first-order functions: no call is
-- left. Then fusion makes one SOAC of the four: `reduce` after `map sq`
-- (a redomap), the two maps of `twice twice` (one map), and the two side
-- by side over `xs` (one redomap that also maps out `twice (twice xs)`,
-- where `x * 2 * 2` is `x * 4`).
-- ==
-- input { [1, 2, 3] } output { 14i32 [4i32, 8i32, 12i32] }
-- structure { Apply 0 Map 0 Reduce 0 Screma 1 Redomap 1 }
-- structure soac { soac.apply 0 /Redomap/BinOp 3 }

def sq (x: i32): i32 = x * x
def sumsq [n] (xs: [n]i32): i32 = reduce (+) 0 (map sq xs)
def twice [n] (xs: [n]i32): [n]i32 = map (* 2) xs

entry main [n] (xs: [n]i32): (i32, [n]i32) = (sumsq xs, twice (twice xs))
