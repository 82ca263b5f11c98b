// RUN: futmlir opt %s --pass-pipeline=soac-to-segop
// RUN: futmlir opt %s --pass-pipeline=soac-to-segop | futmlir opt -

// Note [Sinking cheap code]: the outer map's test of its index and the
// row it takes of %a (an input of the inner map) are recomputed in the
// one two-dimensional segmap, instead of a segmap over the rows writing
// an array of tests and a copy of the rows that the inner kernel reads.
// The view becomes a read at the index of an `iota` input (which the
// flattening makes the thread's index). `soac-to-segop{sink=false}`
// keeps the old distribution (tests/programs/kernels/sink_cheap.fut
// compares both).
// CHECK-LABEL: sym_name = "rows"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[M:%[0-9]+]]: i64, [[A:%[0-9]+]]: [
// CHECK-NOT: segop.segmap([[N]])
// CHECK: segop.segmap([[N]], [[M]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64):
// CHECK: soac.cmpop([[I]],
// CHECK: soac.binop([[I]],
// CHECK: soac.index([[A]],
// CHECK: segop.yield(
// CHECK-NOT: segop.segmap
// CHECK: soac.return(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %a: !fut.array<[%n][%m]f32>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %is = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  %r = "soac.map"(%n, %is) ({
  ^bb0(%i: i64):
    %first = "soac.cmpop"(%i, %zero) {kind = "eq"} : (i64, i64) -> i1
    %up = "soac.binop"(%i, %one) {kind = "sub"} : (i64, i64) -> i64
    %upc = "soac.binop"(%zero, %up) {kind = "max"} : (i64, i64) -> i64
    %row = "soac.index"(%a, %upc) : (!fut.array<[%n][%m]f32>, i64) -> !fut.array<[%m]f32>
    %ys = "soac.map"(%m, %row) ({
    ^bb0(%x: f32):
      %h = "soac.constant"() {value = 0.5 : f32} : () -> f32
      %y = "soac.select"(%first, %h, %x) : (i1, f32, f32) -> f32
      "soac.yield"(%y) : (f32) -> ()
    }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
    "soac.yield"(%ys) : (!fut.array<[%m]f32>) -> ()
  }) : (i64, !fut.array<[%n]i64>) -> !fut.array<[%n][%m]f32>
  "soac.return"(%r) : (!fut.array<[%n][%m]f32>) -> ()
}) {sym_name = "rows", function_type = (i64, i64, !fut.array<[?][?]f32>) -> !fut.array<[?][?]f32>} : () -> ()
