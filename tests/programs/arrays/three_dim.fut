-- Three-dimensional array literals.
-- ==
-- input { 0 }
-- output { [[[0, 1], [2, 3]], [[4, 5], [6, 7]]] 2i64 }
def main (x: i32): ([][][]i32, i64) =
  let a = [[[x, x + 1], [x + 2, x + 3]], [[x + 4, x + 5], [x + 6, x + 7]]]
  in (a, length a[0])
