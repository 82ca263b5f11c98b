-- A map at memory bandwidth (anchor: a device-to-device copy).
-- ==
-- input { [1f32, 2f32] } output { [3f32, 5f32] }
-- notest random input { [100000000]f32 }
def main (xs: []f32): []f32 = map (\x -> x * 2 + 1) xs
