-- A loop whose array parameter changes size on every iteration.
-- ==
-- input { 2 }
-- output { [1, 2, 1, 2, 1, 2, 1, 2] }
-- input { 0 }
-- output { [1, 2] }
def main (n: i32): []i32 =
  loop xs = [1, 2] for _i < n do xs ++ xs
