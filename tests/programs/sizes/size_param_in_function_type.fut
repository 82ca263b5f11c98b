-- Size parameters used only in a function-typed parameter take their
-- values from the use (Note [Size parameters from the context]): the
-- function argument's type gives them.
-- ==
-- entry: negative_position
-- input { 5 } output { 3i64 5 }
-- ==
-- entry: flat_map
-- input { [1, 5] } output { [1, 2, 3, 5, 6, 7] }

def rows [n] (_g: i32 -> [n]i32) : i64 = n

entry negative_position (x: i32) = (rows (replicate 3), x)

def concat_map [n] [m] 'a 'b (f: a -> [m]b) (as: [n]a) : []b =
  flatten (map f as)

entry flat_map (xs: []i32) = concat_map (\x -> [x, x + 1, x + 2]) xs
