-- A module may define names the prelude has (here `map` and `sum`
-- inside a module); outside the module they still mean the prelude's.
-- (Inside its own body, `map` would be the function itself, which is
-- recursive, so M.map does not call the prelude's.)
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] 60 6 }

module M = {
  def map (f: i32 -> i32) (xs: []i32) = xs |> (\ys -> reduce (\a y -> a + f y) 0 ys) |> (* 10)
  def sum (xs: []i32) = map (+ 1) xs + 0
}

def main (xs: []i32) = (map (+ 1) xs, M.map id xs, i32.sum xs)
