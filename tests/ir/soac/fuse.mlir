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

// Horizontal fusion of two scatters into one writing both destinations
// (Note [Fusion legality], 7): the indices of both, then the values.
// CHECK-LABEL: sym_name = "scatter_scatter"
// CHECK: :2 = soac.scatter(
// CHECK: ) : (i64, i64, i32, i32) -> ()
// CHECK-NOT: soac.scatter
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %k: i64, %is: !fut.array<[%k]i64>, %vs: !fut.array<[%k]i32>, %ws: !fut.array<[%k]i32>, %d1: !fut.array<[%n]i32>, %d2: !fut.array<[%n]i32>):
  %r1 = "soac.scatter"(%k, %is, %vs, %d1) ({
  ^bb0(%i: i64, %v: i32):
    "soac.yield"(%i, %v) : (i64, i32) -> ()
  }) : (i64, !fut.array<[%k]i64>, !fut.array<[%k]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %r2 = "soac.scatter"(%k, %is, %ws, %d2) ({
  ^bb0(%i: i64, %w: i32):
    "soac.yield"(%i, %w) : (i64, i32) -> ()
  }) : (i64, !fut.array<[%k]i64>, !fut.array<[%k]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%r1, %r2) : (!fut.array<[%n]i32>, !fut.array<[%n]i32>) -> ()
}) {sym_name = "scatter_scatter", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>, !fut.array<[?]i32>, !fut.array<[?]i32>, !fut.array<[?]i32>) -> (!fut.array<[?]i32>, !fut.array<[?]i32>)} : () -> ()

// Not fused: the second scatter's indices are what the first wrote.
// CHECK-LABEL: sym_name = "scatter_reads_scatter"
// CHECK: = soac.scatter(
// CHECK: = soac.scatter(
// CHECK: soac.return
"soac.func"() ({
^bb0(%k: i64, %is: !fut.array<[%k]i64>, %vs: !fut.array<[%k]i64>, %d1: !fut.array<[%k]i64>, %d2: !fut.array<[%k]i64>):
  %r1 = "soac.scatter"(%k, %is, %vs, %d1) ({
  ^bb0(%i: i64, %v: i64):
    "soac.yield"(%i, %v) : (i64, i64) -> ()
  }) : (i64, !fut.array<[%k]i64>, !fut.array<[%k]i64>, !fut.array<[%k]i64>) -> !fut.array<[%k]i64>
  %r2 = "soac.scatter"(%k, %r1, %vs, %d2) ({
  ^bb0(%i: i64, %v: i64):
    "soac.yield"(%i, %v) : (i64, i64) -> ()
  }) : (i64, !fut.array<[%k]i64>, !fut.array<[%k]i64>, !fut.array<[%k]i64>) -> !fut.array<[%k]i64>
  "soac.return"(%r2) : (!fut.array<[%k]i64>) -> ()
}) {sym_name = "scatter_reads_scatter", function_type = (i64, !fut.array<[?]i64>, !fut.array<[?]i64>, !fut.array<[?]i64>, !fut.array<[?]i64>) -> !fut.array<[?]i64>} : () -> ()

// A map of a scan's result is the scan's post-lambda (Note [Post-lambda
// fusion]): one screma, no stream. The scan's result is returned too, so
// the post-lambda yields it; the map's other array `ys` goes through the
// pre-lambda to the post-lambda.
// CHECK-LABEL: sym_name = "scan_map_post"
// CHECK: soac.screma(
// CHECK: kind = "mul"
// CHECK-NOT: soac.stream_seq
// CHECK-NOT: soac.map
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %ys: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %ps = "soac.scan"(%n, %zero, %xs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %zs = "soac.map"(%n, %ps, %ys) ({
  ^bb0(%p: i32, %y: i32):
    %z = "soac.binop"(%p, %y) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%ps, %zs) : (!fut.array<[%n]i32>, !fut.array<[%n]i32>) -> ()
}) {sym_name = "scan_map_post", function_type = (i64, !fut.array<[?]i32>, !fut.array<[?]i32>) -> (!fut.array<[?]i32>, !fut.array<[?]i32>)} : () -> ()

// A map before the screma fuses into its pre-lambda (when nothing else
// reads its result: rule map-screma).
// CHECK-LABEL: sym_name = "map_scan_map"
// CHECK: soac.screma(
// CHECK-NOT: soac.map
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %one) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %ps = "soac.scan"(%n, %zero, %ys) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %zs = "soac.map"(%n, %ps) ({
  ^bb0(%p: i32):
    %z = "soac.binop"(%p, %p) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%zs) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "map_scan_map", function_type = (i64, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// A reduction beside a screma joins it (Futhark's screma of scans and
// reductions): the scan of xs with the map of its result, and the
// product of xs, are one screma whose first result is the product.
// CHECK-LABEL: sym_name = "screma_reduce"
// CHECK: soac.screma(
// CHECK: kind = "mul"
// CHECK-NOT: soac.reduce
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %ps = "soac.scan"(%n, %zero, %xs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %zs = "soac.map"(%n, %ps) ({
  ^bb0(%p: i32):
    %z = "soac.binop"(%p, %one) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %r = "soac.reduce"(%n, %one, %xs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> i32
  "soac.return"(%zs, %r) : (!fut.array<[%n]i32>, i32) -> ()
}) {sym_name = "screma_reduce", function_type = (i64, !fut.array<[?]i32>) -> (!fut.array<[?]i32>, i32)} : () -> ()
