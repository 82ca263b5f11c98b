// RUN: futmlir opt %s --pass-pipeline=soac-fuse
// RUN: futmlir opt %s --pass-pipeline=soac-fuse | futmlir opt -

// Vertical fusion with the built-in rules: a map feeding a scan is one
// scanomap whose lambda runs the map's body; the map's result is also
// returned, so the scanomap maps it out too (it is not computed twice).
// CHECK-LABEL: sym_name = "map_scan_shared"
// CHECK: %4:2 = soac.scanomap(%0, %3, %1)
// CHECK: kind = "mul"
// CHECK: soac.yield(%9, %9) : (i32, i32) -> ()
// CHECK-NOT: soac.map
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %ps = "soac.scan"(%n, %zero, %ys) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%ps, %ys) : (!fut.array<[%n]i32>, !fut.array<[%n]i32>) -> ()
}) {sym_name = "map_scan_shared", function_type = (i64, !fut.array<[?]i32>) -> (!fut.array<[?]i32>, !fut.array<[?]i32>)} : () -> ()

// Not fused: the array the map reads is updated in place between the map
// and its consumer (Note [Fusion legality], 4).
// CHECK-LABEL: sym_name = "consumed_between"
// CHECK: %14 = soac.map(%10, %11)
// CHECK: soac.update(%11,
// CHECK: soac.map(%10, %14, %17)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %i0 = "soac.constant"() {value = 0 : i64} : () -> i64
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %one) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %us = "soac.update"(%xs, %i0, %one) : (!fut.array<[%n]i32>, i64, i32) -> !fut.array<[%n]i32>
  %zs = "soac.map"(%n, %ys, %us) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%zs) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "consumed_between", function_type = (i64, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
