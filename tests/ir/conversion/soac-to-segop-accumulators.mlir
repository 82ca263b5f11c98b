// RUN: futmlir opt %s --split-input-file --pass-pipeline=soac-to-segop

// A hist_stream writing twice, its writes a chain: two histograms, each
// a seghist (Note [Accumulators as scatter and hist]).
// CHECK-LABEL: "hist_chain"
// CHECK-NOT: soac.hist_stream
// CHECK: [[H:%[0-9]+]] = segop.seghist(
// CHECK: segop.seghist({{%[0-9]+}}, {{%[0-9]+}}, [[H]],
// CHECK-NOT: soac.acc_write
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %h = "soac.hist_stream"(%n, %dest, %zero, %is) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %one = "soac.constant"() {value = 1 : i32} : () -> i32
    %acc2 = "soac.acc_write"(%acc, %i, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
    %k = "soac.constant"() {value = 1 : i64} : () -> i64
    %j = "soac.binop"(%i, %k) {kind = "add"} : (i64, i64) -> i64
    %acc3 = "soac.acc_write"(%acc2, %j, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
    "soac.yield"(%acc3) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "hist_chain", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

// A write in a loop: the stream is a loop over its rows, the write a
// guarded update (Note [Sequential accumulators]).
// CHECK-LABEL: "scatter_loop"
// CHECK-NOT: soac.scatter_stream
// CHECK: soac.loop(
// CHECK: soac.loop(
// CHECK: soac.size(
// CHECK: soac.if(
// CHECK: soac.update(
// CHECK-NOT: soac.acc_write
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %r = "soac.scatter_stream"(%n, %dest, %is) ({
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %two = "soac.constant"() {value = 2 : i64} : () -> i64
    %acc2 = "soac.loop"(%two, %acc) ({
    ^bb0(%j: i64, %a: !fut.array<[%m]i32>):
      %k = "soac.binop"(%i, %j) {kind = "add"} : (i64, i64) -> i64
      %v = "soac.convop"(%j) {kind = "trunc"} : (i64) -> i32
      %a2 = "soac.acc_write"(%a, %k, %v) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
      "soac.yield"(%a2) : (!fut.array<[%m]i32>) -> ()
    }) {form = "for"} : (i64, !fut.array<[%m]i32>) -> !fut.array<[%m]i32>
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%r) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "scatter_loop", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

// No write: left to soac-simplify, which removes the stream when its
// lambda has no effects; here it is a loop like any other.
// CHECK-LABEL: "no_writes"
// CHECK-NOT: soac.scatter_stream
// CHECK: soac.loop(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %r = "soac.scatter_stream"(%n, %dest, %is) ({
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    "soac.yield"(%acc) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%r) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "no_writes", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
