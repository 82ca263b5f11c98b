-- RUN: futmlir build %s --emit=segop

-- soac → segop through `futmlir build`: the map of a map and the sums of
-- its rows fuse (soac level) and become one segred over both dimensions
-- that also yields each product (its map-out result), read by index with
-- both indices. The CHECK lines after AUTOCHECK are generated:
-- `FUTMLIR_BLESS=1 cargo test -p futmlir --test lit` rewrites them.
-- AUTOCHECK
-- CHECK: builtin.module() ({
-- CHECK-LABEL: soac.func() {sym_name = "main", function_type = (i64, i64, !fut.array<[?][?]f32>) -> (!fut.array<[?][?]f32>, !fut.array<[?]f32>), entry, size_params = 2 : i64, interface = "in\t[][]f32\nout\t[][]f32\nout\t[]f32\n"} ({
-- CHECK-NEXT: ^bb0([[V0:%[0-9]+]]: i64, [[V1:%[0-9]+]]: i64, [[V2:%[0-9]+]]: [
-- CHECK-SAME: [[V0]]][[[V1]]]f32):
-- CHECK-NEXT: [[V3:%[0-9]+]] = soac.constant() {value = 2.0 : f32} : () -> f32
-- CHECK-NEXT: [[V4:%[0-9]+]] = soac.constant() {value = 0.0 : f32} : () -> f32
-- CHECK-NEXT: [[V5:%[0-9]+]]:2 = segop.segred([[V0]], [[V1]], [[V4]]) {level = "thread", commutative} ({
-- CHECK-NEXT: ^bb0([[V6:%[0-9]+]]: i64, [[V7:%[0-9]+]]: i64):
-- CHECK-NEXT: [[V8:%[0-9]+]] = soac.index([[V2]], [[V6]], [[V7]]) : ([[[V0]]][[[V1]]]f32, i64, i64) -> f32
-- CHECK-NEXT: [[V9:%[0-9]+]] = soac.binop([[V8]], [[V3]]) {kind = "mul"} : (f32, f32) -> f32
-- CHECK-NEXT: segop.yield([[V9]], [[V9]]) : (f32, f32) -> ()
-- CHECK-NEXT: }, {
-- CHECK-NEXT: ^bb0([[V10:%[0-9]+]]: f32, [[V11:%[0-9]+]]: f32):
-- CHECK-NEXT: [[V12:%[0-9]+]] = soac.binop([[V10]], [[V11]]) {kind = "add"} : (f32, f32) -> f32
-- CHECK-NEXT: segop.yield([[V12]]) : (f32) -> ()
-- CHECK-NEXT: }) : (i64, i64, f32) -> ([[[V0]]]f32, [[[V0]]][[[V1]]]f32)
-- CHECK-NEXT: soac.return([[V5]]#1, [[V5]]#0) : ([[[V0]]][[[V1]]]f32, [[[V0]]]f32) -> ()
-- CHECK-NEXT: }) : () -> ()
-- CHECK-NEXT: }) : () -> ()
entry main (xss: [][]f32) : ([][]f32, []f32) =
  let yss = map (map (\x -> x * 2)) xss
  in (yss, map (\ys -> f32.sum ys) yss)
