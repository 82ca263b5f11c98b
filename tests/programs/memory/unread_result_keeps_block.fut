-- A scan fused with maps makes one segscan with three results: the
-- scanned bytes (never read), a column of 18s and the rows of a
-- transposed matrix. mem-reuse gives each result a block that is
-- dead before the segscan; the unread scan result is made by the
-- segscan, so the block it takes is live there too and the column of
-- 18s must not take the same one (it did, and the scan's bytes
-- overwrote the 18s before the reduction read them).
-- ==
-- input { 1i64 }
-- output { [[0u16]] 18u16 }
-- input { 3i64 }
-- output { [[0u16, 0u16, 0u16], [0u16, 0u16, 0u16], [0u16, 0u16, 0u16]] 18u16 }
-- input { 0i64 }
-- output { empty([0][0]u16) 0u16 }

def main (n: i64) : ([n][n]u16, u16) =
  let rows = transpose (replicate n (replicate n 19u16))
  let zeros = map2 (\_ _ -> reduce u16.max 0 (replicate n 0u16)) rows (scan (*) 1u8 (replicate n 0u8))
  in (map (\_ -> replicate n 0u16) zeros, reduce u16.max 0 (replicate n 18u16))
