-- Records built by punning inside `map2` and taken apart by punned
-- patterns in a lambda; a record with an array field updated.
-- ==
-- input { [1, 2] [0.5f32, 1.5f32] }
-- output { [0.5f32, 1.5f32] [1, 2] [2, 3] 2i64 }
def main [n] (xs: [n]i32) (ys: [n]f32): ([n]f32, [n]i32, [n]i32, i64) =
  let rs = map2 (\a b -> {a, b}) xs ys
  let swapped = map (\{a, b} -> {a = b, b = a}) rs
  let r = {data = xs, len = n}
  let r2 = r with data = map (+ 1) r.data
  in (map (.a) swapped, map (.b) swapped, r2.data, r2.len)
