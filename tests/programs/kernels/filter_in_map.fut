-- A filter inside a kernel's body runs sequentially in each thread, into
-- a buffer of the input's length (Note [Filters in kernels] in
-- lowering/src/segop_to_imp/segops.rs).
-- ==
-- input { [[1, -2, 3], [0, 0, 0], [4, 5, 6]] }
-- output { [2i64, 0i64, 3i64] [4, 0, 15] }
-- input { empty([0][3]i32) }
-- output { empty([0]i64) empty([0]i32) }
-- input { empty([2][0]i32) }
-- output { [0i64, 0i64] [0, 0] }

def main (xss: [][]i32) =
  ( map (\xs -> length (filter (> 0) xs)) xss
  , map (\xs -> let ys = filter (> 0) xs in reduce (+) 0 ys) xss
  )

-- Filters of tuples (several arrays), and a map over the kept rows.
-- ==
-- entry: tuples
-- input { [[1, -2, 3], [-1, -1, -1]] [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] }
-- output { [4f32, 0f32] [4, 0] }
entry tuples [n] [m] (xss: [n][m]i32) (yss: [n][m]f32) =
  unzip (map2 (\xs ys ->
                 let (a, b) = unzip (filter (\(x, _) -> x > 0) (zip xs ys))
                 in (f32.sum b, i32.sum (map (* 2) a) / 2 + 0 * i32.i64 (length b)))
              xss yss)

-- A filter in a loop in a map, and a filter of a filter's result.
-- ==
-- entry: nested
-- input { [[1, 2, 3, 4], [5, 0, 0, 1]] }
-- output { [9i64, 4i64] [2i64, 2i64] }
entry nested (xss: [][]i32) =
  ( map (\xs -> loop acc = 0i64 for i < 3 do acc + length (filter (> i32.i64 i) xs)) xss
  , map (\xs -> length (filter (\x -> x % 2 == 1) (filter (> 0) xs))) xss
  )

-- A filter of an iota whose length varies between the threads, and of
-- rows that are arrays.
-- ==
-- entry: varying
-- input { [4i64, 0i64, 7i64] [[[1, 2], [-1, 5]], [[3, 3], [0, 1]], [[-4, 4], [-5, 5]]] }
-- output { [2i64, 0i64, 12i64] [3, 6, 0] }
entry varying (ns: []i64) (xsss: [][][]i32) =
  ( map (\n -> i64.sum (filter (\x -> x % 2 == 0) (iota n))) ns
  , map (\xss -> i32.sum (flatten (filter (\r -> r[0] > 0) xss))) xsss
  )
