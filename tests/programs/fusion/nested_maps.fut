-- Outer maps fuse, then the two inner maps the fused lambda holds.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[3i32, 5i32], [7i32, 9i32]] }
-- structure { Screma 2 /Map 1 /Map/Map 1 }

def main (xss: [][]i32): [][]i32 = map (\r -> map (+ 1) r) (map (\r -> map (* 2) r) xss)
