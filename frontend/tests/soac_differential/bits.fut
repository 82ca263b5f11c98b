-- get_bit and set_bit, also with bit numbers outside the width (which read
-- as 0 and write nothing) and set_bit values other than 0 and 1 (their low
-- bit counts).
-- ==
-- input { [-7, 7, 0, -1, 100, -128] [0, 3, 31, 32, 40, -1, 257] [0, 1, 2, 3] }
def main (xs: []i32) (bs: []i32) (vs: []i32) =
  ( map (\b -> map (i32.get_bit b) xs) bs
  , map (\b -> map (\x -> map (i32.set_bit b x) vs) xs) bs
  , map (\b -> map (\x -> u8.get_bit b (u8.i32 x)) xs) bs
  , map (\b -> map (\x -> map (u8.set_bit b (u8.i32 x)) vs) xs) bs
  , map (\b -> map (\x -> i64.get_bit b (i64.i32 x)) xs) bs
  , map (\b -> map (\x -> map (i64.set_bit b (i64.i32 x)) vs) xs) bs
  )
