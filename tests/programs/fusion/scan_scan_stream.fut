-- A running maximum of prefix sums: two scans in a row, fused through one
-- stream with two carries. In the chunk lambda the second scan fuses with
-- the map adding the first one's carry (a scanomap), and a map adds its
-- own carry.
-- ==
-- input { [3, -1, -4, 6, -2, 5, -9, 1] }
-- output { [3i32, 3i32, 3i32, 4i32, 4i32, 7i32, 7i32, 7i32] }
-- structure { Stream 1 Scan 1 Scanomap 1 Map 1 }

def main (xs: []i32): []i32 = scan i32.max i32.lowest (scan (+) 0 xs)
