-- A return size given by a value parameter.
-- ==
-- input { 3i64 }
-- output { [1, 1, 1] }
-- input { 0i64 }
-- output { empty([0]i32) }
def ones (n: i64): [n]i32 = replicate n 1

def main (n: i64): []i32 = ones n
