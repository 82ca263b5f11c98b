-- '&&' and '||' do not evaluate their right operand when the left decides.
-- ==
-- input { [1, 2, 3] 5i64 }
-- output { false true }
-- input { [1, -2, 3] 1i64 }
-- output { false false }
-- input { [1, 2, 3] 0i64 }
-- output { true true }
def main (xs: []i32) (i: i64): (bool, bool) =
  (i < length xs && xs[i] > 0, i >= length xs || xs[i] > 0)
