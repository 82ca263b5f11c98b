-- `replicate n x` with a negative n is a run-time error, also inside a
-- `map`.
-- ==
-- input { [2i64, 1i64] }
-- output { [[7, 7], [7, 0]] }
-- input { [2i64, -1i64] }
-- error: negative
def main (ns: []i64): [][]i32 = map (\n -> replicate n 7 ++ replicate (2 - n) 0 :> [2]i32) ns
