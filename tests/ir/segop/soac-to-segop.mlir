// RUN: futmlir opt %s --pass-pipeline=soac-to-segop
// RUN: futmlir opt %s --pass-pipeline=soac-to-segop | futmlir opt -

// Kernel extraction. A perfect map nest is one segmap over both
// dimensions, reading its rows with soac.index. A map whose lambda is
// only a reduction over a size from outside is a segmented segred over
// two dimensions (thesis rule G5), keeping `commutative`. Top-level
// reduce and scan are segred and segscan over one dimension. A map whose
// lambda does more than one SOAC is a segmap over its own dimension; the
// inner map stays a soac op, run sequentially by each thread.
// CHECK-LABEL: sym_name = "kernels"
// CHECK: %5 = segop.segmap(%0, %1) {level = "thread"}
// CHECK-NEXT: ^bb0(%6: i64, %7: i64):
// CHECK-NEXT: %8 = soac.index(%2, %6)
// CHECK-NEXT: %9 = soac.index(%8, %7)
// CHECK-NEXT: kind = "mul"
// CHECK-NEXT: segop.yield(%10)
// CHECK-NEXT: }) : (i64, i64) -> [%0][%1]f32
// CHECK: %11 = segop.segred(%0, %1, %4) {level = "thread", commutative}
// CHECK: }) : (i64, i64, f32) -> [%0]f32
// CHECK: %19 = segop.segred(%0, %4) {level = "thread"}
// CHECK: %25 = segop.segscan(%0, %4) {level = "thread"}
// CHECK: %31 = segop.segmap(%0) {level = "thread"}
// CHECK: %36 = soac.map(%0, %25)
// CHECK: segop.yield(%36)
// CHECK: soac.return(%5, %19, %25, %31)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>, %k: f32):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %ys = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]f32>):
    %zs = "soac.map"(%m, %xs) ({
    ^bb0(%x: f32):
      %y = "soac.binop"(%x, %k) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%y) : (f32) -> ()
    }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
    "soac.yield"(%zs) : (!fut.array<[%m]f32>) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> !fut.array<[%n][%m]f32>
  %sums = "soac.map"(%n, %ys) ({
  ^bb0(%r: !fut.array<[%m]f32>):
    %s = "soac.reduce"(%m, %zero, %r) ({
    ^bb0(%a: f32, %b: f32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%c) : (f32) -> ()
    }) {commutative} : (i64, f32, !fut.array<[%m]f32>) -> f32
    "soac.yield"(%s) : (f32) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> !fut.array<[%n]f32>
  %total = "soac.reduce"(%n, %zero, %sums) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  %ps = "soac.scan"(%n, %zero, %sums) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %mx = "soac.map"(%n, %ps) ({
  ^bb0(%p: f32):
    %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
    %q = "soac.binop"(%p, %two) {kind = "mul"} : (f32, f32) -> f32
    %inner = "soac.map"(%n, %ps) ({
    ^bb0(%t: f32):
      %u = "soac.binop"(%t, %q) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%u) : (f32) -> ()
    }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    "soac.yield"(%inner) : (!fut.array<[%n]f32>) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n][%n]f32>
  "soac.return"(%ys, %total, %ps, %mx) : (!fut.array<[%n][%m]f32>, f32, !fut.array<[%n]f32>, !fut.array<[%n][%n]f32>) -> ()
}) {sym_name = "kernels", function_type = (i64, i64, !fut.array<[?][?]f32>, f32) -> (!fut.array<[?][?]f32>, f32, !fut.array<[?]f32>, !fut.array<[?][?]f32>)} : () -> ()
