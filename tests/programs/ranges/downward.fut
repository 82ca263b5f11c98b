-- An exclusive downward range 'a..>b'.
-- ==
-- input { 5 }
-- output { [5, 4, 3, 2, 1] }
def main (a: i32): []i32 = a..>0
