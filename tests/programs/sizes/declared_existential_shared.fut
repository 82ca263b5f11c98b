-- One call's declared existential result size is one size: the result
-- zips with a map of itself.
-- ==
-- input { [1, 0, 2] } output { [1, 2] [2, 3] }

def nonzero [n] (xs: [n]i32) : ?[m].[m]i32 = filter (!= 0) xs

def main (xs: []i32) =
  let ys = nonzero xs
  in unzip (zip ys (map (+ 1) ys))
