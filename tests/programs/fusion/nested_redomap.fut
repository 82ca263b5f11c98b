-- Fusion inside a map's lambda: each row's map and reduce are one redomap.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [6i32, 14i32] }
-- structure { Screma 2 /Map 1 /Map/Redomap 1 }

def main (xss: [][]i32): []i32 = map (\row -> reduce (+) 0 (map (* 2) row)) xss
