// RUN: futmlir opt %s --pass-pipeline=soac-vjp --verify-diagnostics

// A construct the pass does not differentiate gets a diagnostic, not a
// crash.
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %dy: f32):
  %y:2 = "soac.vjp"(%xs, %dy) ({
  ^bb0(%a: !fut.array<[%n]f32>):
    %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
    // expected-error @+1 {{vjp: `soac.stream_seq` is not supported}}
    %s = "soac.stream_seq"(%n, %zero, %a) ({
    ^bb0(%c: i64, %acc: f32, %chunk: !fut.array<[%c]f32>):
      "soac.yield"(%acc) : (f32) -> ()
    }) {num_accs = 1 : i64} : (i64, f32, !fut.array<[%n]f32>) -> f32
    "soac.yield"(%s) : (f32) -> ()
  }) : (!fut.array<[%n]f32>, f32) -> (f32, !fut.array<[%n]f32>)
  "soac.return"(%y#1) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "stream", function_type = (i64, !fut.array<[?]f32>, f32) -> !fut.array<[?]f32>} : () -> ()
