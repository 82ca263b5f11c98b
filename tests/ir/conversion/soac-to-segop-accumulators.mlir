// RUN: futmlir opt %s --pass-pipeline=soac-to-segop

// A hist_stream becomes a loop over its rows; each write is a guarded
// read-combine-update (Note [Sequential accumulators]).
// CHECK-LABEL: "hist"
// CHECK-NOT: soac.hist_stream
// CHECK: soac.loop(
// CHECK: soac.size(
// CHECK: soac.if(
// CHECK: soac.index(
// CHECK: soac.binop({{.*}}) {kind = "add"}
// CHECK: soac.update(
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
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "hist", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
