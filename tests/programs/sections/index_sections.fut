-- Index sections: `(.[i])` is `\a -> a[i]`, with slices and several
-- indices; the indices may name any variable in scope.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 }
-- output { [2, 5] [4] [2, 3] [4, 4] }
def main (xss: [][]i32) (i: i64) =
  ( map (.[1]) xss
  , map (.[i, 0]) [xss]
  , (.[1:]) (xss[0])
  , map (.[0]) (map (.[i]) [xss, xss])
  )
