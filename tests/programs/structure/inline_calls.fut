-- The default soac pipeline inlines first-order functions: no call is
-- left, and the two maps of `twice` stay (fusion is not there yet).
-- ==
-- input { [1, 2, 3] } output { 14i32 [4i32, 8i32, 12i32] }
-- structure { Apply 0 Map 3 Reduce 1 Screma 4 }
-- structure soac { soac.apply 0 /Map/BinOp 3 }

def sq (x: i32): i32 = x * x
def sumsq [n] (xs: [n]i32): i32 = reduce (+) 0 (map sq xs)
def twice [n] (xs: [n]i32): [n]i32 = map (* 2) xs

entry main [n] (xs: [n]i32): (i32, [n]i32) = (sumsq xs, twice (twice xs))
