-- Integer `**` with a negative exponent is a run-time error, in scalar
-- code and inside a map (a kernel on the GPU); non-negative exponents
-- wrap like multiplication.
-- ==
-- input { 3 [0, 1, 4, 20] }
-- output { [1, 3, 81, -808182895] }
-- input { 2 [1, -1] }
-- error: negative exponent
def main (x: i32) (es: []i32): []i32 = map (\e -> x ** e) es

-- ==
-- entry: scalar
-- input { 5i64 3i64 }
-- output { 125i64 }
-- input { 5i64 -3i64 }
-- error: negative exponent
entry scalar (x: i64) (e: i64): i64 = x ** e
