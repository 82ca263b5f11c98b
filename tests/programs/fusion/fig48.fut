-- Thesis Figure 48: b feeds two maps, whose results feed a third; all fuse
-- into one map, and b is computed once; its constant then gathers with
-- theirs (a + 1 + 2 is a + 3), which leaves three additions.
-- ==
-- input { [1, 2, 3] }
-- output { [9i32, 11i32, 13i32] }
-- structure { Screma 1 Map 1 /Map/BinOp 3 }

def main (a: []i32): []i32 =
  let b = map (+ 1) a
  let c = map (+ 2) b
  let d = map (+ 3) b
  in map2 (+) c d
