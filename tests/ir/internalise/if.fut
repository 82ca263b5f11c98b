-- `if` becomes soac.if. A result whose size differs between the branches
-- (here: a filter's) gets an existential size, named after the branch.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "same_size"
-- CHECK: %3 = soac.if(%1) ({
-- CHECK-NEXT: soac.yield(%2) : ([%0]i32) -> ()
-- CHECK: soac.yield(%5) : ([%0]i32) -> ()
-- CHECK-NEXT: }) : (bool) -> [%0]i32
-- CHECK-NEXT: soac.return(%3) : ([%0]i32) -> ()
-- CHECK-LABEL: sym_name = "different_sizes"
-- CHECK: soac.yield(%17) : ([%16]i32) -> ()
-- CHECK-NEXT: }) : (bool) -> [?]i32
-- CHECK-NEXT: %18 = soac.size(%11) {dim = 0 : i64} : ([?]i32) -> i64
-- CHECK-NEXT: %19 = soac.reshape(%11, %18) : ([?]i32, i64) -> [%18]i32

entry same_size [n] (b: bool) (xs: [n]i32): [n]i32 =
  if b then xs else map (+1) xs

entry different_sizes (b: bool) (xs: []i32): []i32 =
  if b then xs else filter (> 0) xs
