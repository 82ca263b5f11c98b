-- A module may define names the prelude has (here `map` and `sum`
-- inside a module); outside the module they still mean the prelude's.
-- ==
-- input { [1, 2, 3] } output { [2, 3, 4] 60 6 }

module M = {
  def map (f: i32 -> i32) (xs: []i32) = xs |> (\ys -> reduce (+) 0 (map f ys)) |> (* 10)
  def sum (xs: []i32) = map (+ 1) xs + 0
}

def main (xs: []i32) = (map (+ 1) xs, M.map id xs, i32.sum xs)
