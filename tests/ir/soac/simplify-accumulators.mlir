// RUN: futmlir opt %s --split-input-file --pass-pipeline=soac-simplify

// A write of the neutral element goes; the stream, then writing nothing,
// is its destination (Note [Simplifying accumulators]).
// CHECK-LABEL: "neutral"
// CHECK: ^bb0({{.*}}, [[D:%[0-9]+]]: [{{%[0-9]+}}]i32):
// CHECK-NOT: soac.hist_stream
// CHECK: soac.return([[D]])
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %h = "soac.hist_stream"(%n, %dest, %one, %is) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %uno = "soac.constant"() {value = 1 : i32} : () -> i32
    %acc2 = "soac.acc_write"(%acc, %i, %uno) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "neutral", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

// Another value is written: the write and the stream stay, and the
// write is not hoisted out of the lambda though it uses no row.
// CHECK-LABEL: "written"
// CHECK: soac.hist_stream(
// CHECK: ^bb0(
// CHECK: ^bb0(
// CHECK: soac.acc_write(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %h = "soac.hist_stream"(%n, %dest, %one, %is) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %two = "soac.constant"() {value = 2 : i32} : () -> i32
    %zero = "soac.constant"() {value = 0 : i64} : () -> i64
    %acc2 = "soac.acc_write"(%acc, %zero, %two) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "written", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

// A stream that writes nothing but asserts stays: the assertion is an
// effect of its own.
// CHECK-LABEL: "asserting"
// CHECK: soac.scatter_stream(
// CHECK: soac.assert(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %r = "soac.scatter_stream"(%n, %dest, %is) ({
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %zero = "soac.constant"() {value = 0 : i64} : () -> i64
    %ok = "soac.cmpop"(%i, %zero) {kind = "ge"} : (i64, i64) -> i1
    "soac.assert"(%ok) {message = "negative index"} : (i1) -> ()
    "soac.yield"(%acc) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%r) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "asserting", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
