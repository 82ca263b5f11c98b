// RUN: futmlir opt %s --pass-pipeline=soac-partition
// RUN: futmlir opt %s --pass-pipeline=soac-partition | futmlir opt -

// Three classes: the classifier, clamped (a class outside 0..3 goes to
// the last class, 3), yields one-hot flags of the four classes, scanned
// in one scanomap; the sizes are the last running counts (0s for no
// rows); each row goes to its class's offset plus its running count,
// less one, in a copy of the input.
// CHECK-LABEL: sym_name = "three"
// CHECK-NOT: soac.partition
// CHECK: %5 = soac.constant() {value = 3 : i64}
// CHECK: %6:5 = soac.scanomap(%0, %2, %2, %2, %2, %1)
// CHECK: soac.cmpop(%19, %5) {kind = "lt"}
// CHECK: soac.select(%20, %19, %5)
// CHECK: soac.cmpop(%19, %2) {kind = "ge"}
// CHECK: %23 = soac.select(%22, %21, %5)
// CHECK: soac.yield(%25, %27, %29, %31, %23)
// CHECK: %33:3 = soac.if(
// CHECK: soac.index(%6#0, %34)
// CHECK: soac.yield(%2, %2, %2)
// CHECK: %38 = soac.constant() {value = -1 : i64}
// CHECK: %39 = soac.binop(%38, %33#0) {kind = "add"}
// CHECK: %42 = soac.copy(%1)
// CHECK: %43 = soac.scatter(%0, %6#4, %6#0, %6#1, %6#2, %6#3, %1, %42)
// CHECK: soac.select(
// CHECK: soac.yield(%59, %49)
// CHECK: soac.return(%33#0, %33#1, %33#2, %43)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i64>):
  %p:4 = "soac.partition"(%n, %xs) ({
  ^bb0(%x: i64):
    "soac.yield"(%x) : (i64) -> ()
  }) {k = 3 : i64} : (i64, !fut.array<[%n]i64>) -> (i64, i64, i64, !fut.array<[%n]i64>)
  "soac.return"(%p#0, %p#1, %p#2, %p#3) : (i64, i64, i64, !fut.array<[%n]i64>) -> ()
}) {sym_name = "three", function_type = (i64, !fut.array<[?]i64>) -> (i64, i64, i64, !fut.array<[?]i64>)} : () -> ()

// Rows that are arrays, and two inputs: the scatter writes whole rows.
// CHECK-LABEL: sym_name = "rows"
// CHECK-NOT: soac.partition
// CHECK: %67:3 = soac.scanomap(%60, %65, %65, %62, %63)
// CHECK: ^bb0(%74: [%61]f32, %75: i32):
// CHECK: %92 = soac.copy(%62) : ([%60][%61]f32) -> [%60][%61]f32
// CHECK: %93 = soac.copy(%63) : ([%60]i32) -> [%60]i32
// CHECK: %94:2 = soac.scatter(%60, %67#2, %67#0, %67#1, %62, %63, %92, %93)
// CHECK-NEXT: ^bb0(%95: i64, %96: i64, %97: i64, %98: [%61]f32, %99: i32):
// CHECK: soac.yield(%103, %103, %98, %99)
// CHECK: soac.return(%87, %94#0, %94#1)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>, %ys: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %p:3 = "soac.partition"(%n, %xss, %ys) ({
  ^bb0(%xs: !fut.array<[%m]f32>, %y: i32):
    %neg = "soac.cmpop"(%y, %zero) {kind = "lt"} : (i32, i32) -> i1
    %c = "soac.convop"(%neg) {kind = "btoi"} : (i1) -> i64
    "soac.yield"(%c) : (i64) -> ()
  }) {k = 1 : i64} : (i64, !fut.array<[%n][%m]f32>, !fut.array<[%n]i32>) -> (i64, !fut.array<[%n][%m]f32>, !fut.array<[%n]i32>)
  "soac.return"(%p#0, %p#1, %p#2) : (i64, !fut.array<[%n][%m]f32>, !fut.array<[%n]i32>) -> ()
}) {sym_name = "rows", function_type = (i64, i64, !fut.array<[?][?]f32>, !fut.array<[?]i32>) -> (i64, !fut.array<[?][?]f32>, !fut.array<[?]i32>)} : () -> ()
