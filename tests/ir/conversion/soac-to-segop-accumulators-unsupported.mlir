// RUN: futmlir opt %s --pass-pipeline=soac-to-segop --verify-diagnostics

// A write whose accumulator is a function's parameter (the function was
// not inlined) cannot be tied to its stream: a diagnostic, not a crash.
"soac.func"() ({
^bb0(%m: i64, %acc: !fut.array<[%m]i32>, %i: i64):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  // expected-error @+1 {{the compiled backends do not support this accumulator write yet}}
  %a = "soac.acc_write"(%acc, %i, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
  "soac.return"(%a) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "write", function_type = (i64, !fut.array<[?]i32>, i64) -> !fut.array<[?]i32>} : () -> ()
