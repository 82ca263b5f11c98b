-- Indexing and slicing check their bounds (soac.assert "index out of
-- bounds" with the source location) unless the index is known to be in
-- range: a constant, a loop counter below the size, a row of `iota n`, or
-- inside #[unsafe]. A column `a[:, 0]` is an index of the transposed
-- array.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "element"
-- CHECK: %3 = soac.cmpop(%2, %0) {kind = "lt"}
-- CHECK: %5 = soac.cmpop(%2, %4) {kind = "ge"}
-- CHECK-NEXT: %6 = soac.binop(%5, %3) {kind = "and"}
-- CHECK-NEXT: soac.assert(%6, %2, %0) {message = "Index [{0}] out of bounds for array of shape [{1}]. (
-- CHECK-SAME: indexing.fut:29:48)"}
-- CHECK-NEXT: %7 = soac.index(%1, %2) : ([%0]f32, i64) -> f32
-- CHECK-LABEL: sym_name = "in_loop"
-- CHECK-NOT: soac.assert
-- CHECK: soac.index(%9, %12) : ([%8]f32, i64) -> f32
-- CHECK-LABEL: sym_name = "in_map"
-- CHECK: soac.assert
-- CHECK-LABEL: sym_name = "slices"
-- CHECK: soac.assert
-- CHECK: %43 = soac.index(%33, %34) : ([%31][%32]i32, i64) -> [%32]i32
-- CHECK-NEXT: %44 = soac.slice(%43, %39, %40, %39) : ([%32]i32, i64, i64, i64) -> [%40]i32
-- CHECK: %46 = soac.rearrange(%33) {perm = [1 : i64, 0 : i64]} : ([%31][%32]i32) -> [%32][%31]i32
-- CHECK-NEXT: %47 = soac.index(%46, %36) : ([%32][%31]i32, i64) -> [%31]i32
-- CHECK-LABEL: sym_name = "unchecked"
-- CHECK-NOT: soac.assert
-- CHECK: soac.index

entry element [n] (xs: [n]f32) (i: i64): f32 = xs[i]

entry in_loop [n] (xs: [n]f32): f32 = loop s = 0 for i < n do s + xs[i]

entry in_map [n] (xs: [n]f32): [n]f32 = map (\i -> xs[n - 1 - i]) (iota n)

entry slices [n][m] (a: [n][m]i32) (i: i64): ([]i32, []i32) = (a[i, 1:], a[:, 0])

entry unchecked [n] (xs: [n]f32) (i: i64): f32 = #[unsafe] xs[i]
