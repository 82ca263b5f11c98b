-- f32.highest and f32.lowest are the infinities; reductions of empty arrays give them.
-- ==
-- input { empty([0]f32) }
-- output { f32.inf -f32.inf -f32.inf f32.inf }
def main (xs: []f32): (f32, f32, f32, f32) =
  (f32.highest, f32.lowest, f32.maximum xs, f32.minimum xs)
