-- Higher-order functions handing functions on to SOACs: a generic
-- `sum_by` used on itself, `map (map f)`, and `id` given to `sum_by`.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { 30 [[2, 4], [6, 8]] [3, 10] }
def sum_by 'a (f: a -> i32) (xs: []a): i32 = reduce (+) 0 (map f xs)

def main (m: [][]i32): (i32, [][]i32, []i32) =
  let sq x = x * x
  in (sum_by (sum_by sq) m, map (map (2 *)) m, scan (+) 0 (map (sum_by id) m))
