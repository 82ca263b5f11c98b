-- A local function refers to variables in scope.
-- ==
-- input { [1, 2, 3] 10 }
-- output { [11, 12, 13] }
def main (xs: []i32) (k: i32): []i32 =
  let addk (x: i32): i32 = x + k
  in map addk xs
