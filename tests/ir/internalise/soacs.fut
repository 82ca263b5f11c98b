-- The SOAC built-ins become soac ops with their lambdas as regions; the
-- arrays they combine must have one outer size, checked at run time
-- (`zip`'s check: the prelude's `map2` is a `map` of a `zip`).
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "maps"
-- CHECK: soac.assert(%4) {message = "`zip` of arrays of different sizes
-- CHECK-NEXT: %5 = soac.reshape(%3, %0) : ([%1]f32, i64) -> [%0]f32
-- CHECK-NEXT: %6 = soac.map(%0, %2, %5) ({
-- CHECK-NEXT: ^bb0(%7: f32, %8: f32):
-- CHECK-NEXT: soac.binop(%7, %8) {kind = "mul"}
-- CHECK: }) : (i64, [%0]f32, [%0]f32) -> [%0]f32
-- CHECK-LABEL: sym_name = "reduces"
-- CHECK: %15 = soac.reduce(%12, %14, %13) ({
-- CHECK-NEXT: ^bb0(%16: i32, %17: i32):
-- CHECK-NEXT: soac.binop(%16, %17) {kind = "add"}
-- CHECK: soac.constant() {value = -2147483648 : i32}
-- CHECK-NEXT: soac.reduce(%12, %19, %13) {commutative} ({
-- CHECK: {kind = "max"}
-- CHECK-LABEL: sym_name = "scans"
-- CHECK: soac.scan(%24, %26, %25) ({
-- CHECK: }) : (i64, i64, [%24]i64) -> [%24]i64
-- CHECK-LABEL: sym_name = "filters"
-- CHECK: %33 = soac.filter(%31, %32) ({
-- CHECK: }) : (i64, [%31]i32) -> [?]i32
-- CHECK-NEXT: %37 = soac.size(%33) {dim = 0 : i64} : ([?]i32) -> i64
-- CHECK-NEXT: %38 = soac.reshape(%33, %37) : ([?]i32, i64) -> [%37]i32
-- CHECK-LABEL: sym_name = "scatters"
-- CHECK: %47 = soac.scatter(%40, %43, %46, %42) ({
-- CHECK-NEXT: ^bb0(%48: i64, %49: f32):
-- CHECK-NEXT: soac.yield(%48, %49) : (i64, f32) -> ()
-- CHECK-NEXT: }) : (i64, [%40]i64, [%40]f32, [%39]f32) -> [%39]f32
-- CHECK-LABEL: sym_name = "hists"
-- CHECK: %56 = soac.replicate(%55, %54) : (i64, i32) -> [%55]i32
-- CHECK: %59 = soac.hist(%50, %55, %56, %54, %52, %58) ({
-- CHECK: {kind = "add"}
-- CHECK: ^bb0(%63: i64, %64: i32):
-- CHECK-NEXT: soac.yield(%63, %64) : (i64, i32) -> ()
-- CHECK-NEXT: }) : (i64, i64, [%55]i32, i32, [%50]i64, [%50]i32) -> [%55]i32

entry maps (xs: []f32) (ys: []f32): []f32 = map (\(x, y) -> x * y + 1) (zip xs ys)

entry reduces (xs: []i32): (i32, i32) = (reduce (+) 0 xs, reduce_comm i32.max i32.lowest xs)

entry scans (xs: []i64): []i64 = scan (+) 0 xs

entry filters (xs: []i32): []i32 = filter (\x -> x > 0) xs

entry scatters (dest: *[]f32) (is: []i64) (vs: []f32): []f32 = scatter dest is vs

entry hists (is: []i64) (vs: []i32): []i32 = hist (+) 0 10 is vs
