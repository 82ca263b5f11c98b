-- The example of thesis 7.3.2: a scanomap (the map fused into the scan)
-- whose result a map reads. The thesis fuses them through a stream_seq;
-- Futhark today (and futmlir) makes the map the scan's post-lambda: one
-- screma. The scan's own result is returned too, so the post-lambda also
-- yields it.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7] }
-- output { [2i32, 5i32, 9i32, 14i32, 20i32, 27i32, 35i32] [4i32, 7i32, 11i32, 16i32, 22i32, 29i32, 37i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }
-- structure { Stream 0 Screma 1 }

def main (xs: []i32): ([]i32, []i32) =
  let ys = scan (+) 0 (map (+ 1) xs)
  let zs = map (+ 2) ys
  in (ys, zs)
