-- The SOAC built-ins become soac ops with their lambdas as regions; the
-- arrays they combine have one outer size (`zip` in `maps` makes the two
-- parameters' anonymous sizes one inferred size parameter, so no check
-- is left at run time).
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "maps"
-- CHECK-SAME: size_params = 1
-- CHECK-NEXT: ^bb0(%0: i64, %1: [%0]f32, %2: [%0]f32):
-- CHECK-NEXT: %3 = soac.map(%0, %1, %2) ({
-- CHECK-NEXT: ^bb0(%4: f32, %5: f32):
-- CHECK-NEXT: soac.binop(%4, %5) {kind = "mul"}
-- CHECK: }) : (i64, [%0]f32, [%0]f32) -> [%0]f32
-- CHECK-LABEL: sym_name = "reduces"
-- CHECK: %12 = soac.reduce(%9, %11, %10) ({
-- CHECK-NEXT: ^bb0(%13: i32, %14: i32):
-- CHECK-NEXT: soac.binop(%13, %14) {kind = "add"}
-- CHECK: soac.constant() {value = -2147483648 : i32}
-- CHECK-NEXT: soac.reduce(%9, %16, %10) {commutative} ({
-- CHECK: {kind = "max"}
-- CHECK-LABEL: sym_name = "scans"
-- CHECK: soac.scan(%21, %23, %22) ({
-- CHECK: }) : (i64, i64, [%21]i64) -> [%21]i64
-- CHECK-LABEL: sym_name = "filters"
-- CHECK: %30 = soac.filter(%28, %29) ({
-- CHECK: }) : (i64, [%28]i32) -> [?]i32
-- CHECK-NEXT: %34 = soac.size(%30) {dim = 0 : i64} : ([?]i32) -> i64
-- CHECK-NEXT: %35 = soac.reshape(%30, %34) : ([?]i32, i64) -> [%34]i32
-- CHECK-LABEL: sym_name = "scatters"
-- CHECK: %41 = soac.scatter(%37, %39, %40, %38) ({
-- CHECK-NEXT: ^bb0(%42: i64, %43: f32):
-- CHECK-NEXT: soac.yield(%42, %43) : (i64, f32) -> ()
-- CHECK-NEXT: }) : (i64, [%37]i64, [%37]f32, [%36]f32) -> [%36]f32
-- CHECK-LABEL: sym_name = "hists"
-- CHECK: %49 = soac.replicate(%48, %47) : (i64, i32) -> [%48]i32
-- CHECK: %50 = soac.hist(%44, %48, %49, %47, %45, %46) ({
-- CHECK: {kind = "add"}
-- CHECK: ^bb0(%54: i64, %55: i32):
-- CHECK-NEXT: soac.yield(%54, %55) : (i64, i32) -> ()
-- CHECK-NEXT: }) : (i64, i64, [%48]i32, i32, [%44]i64, [%44]i32) -> [%48]i32

entry maps (xs: []f32) (ys: []f32): []f32 = map (\(x, y) -> x * y + 1) (zip xs ys)

entry reduces (xs: []i32): (i32, i32) = (reduce (+) 0 xs, reduce_comm i32.max i32.lowest xs)

entry scans (xs: []i64): []i64 = scan (+) 0 xs

entry filters (xs: []i32): []i32 = filter (\x -> x > 0) xs

entry scatters (dest: *[]f32) (is: []i64) (vs: []f32): []f32 = scatter dest is vs

entry hists (is: []i64) (vs: []i32): []i32 = hist (+) 0 10 is vs
