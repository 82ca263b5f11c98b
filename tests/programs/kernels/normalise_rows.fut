-- Each row divided by its sum: the map's lambda reduces the row, then
-- maps over it. Map distribution (rule G4) splits it into a segmented
-- reduction and a segmap over both dimensions, each a perfect nest.
-- ==
-- input { [[1f32, 3f32], [2f32, 2f32], [0f32, 5f32]] }
-- output { [[0.25f32, 0.75f32], [0.5f32, 0.5f32], [0f32, 1f32]] }
-- structure gpu { SegRed 1 SegMap 1 Screma 0 }

def main (xss: [][]f32): [][]f32 =
  map (\xs -> let s = f32.sum xs in map (/ s) xs) xss
