// RUN: futmlir opt %s --pass-pipeline=soac-vjp
// RUN: futmlir opt %s --pass-pipeline=soac-vjp | futmlir opt -

// The return sweep of y = x * sin x from the cotangent dy: the product
// rule gives x̄ = dy * sin x (the first operand) plus, through sin, (dy *
// x) * cos x; the soac.vjp is gone, its results are the primal and x̄.
// CHECK-LABEL: sym_name = "scalar"
// CHECK-NOT: soac.vjp
// CHECK: [[S:%[0-9]+]] = soac.unop(%0) {kind = "sin"}
// CHECK-NEXT: [[P:%[0-9]+]] = soac.binop(%0, [[S]]) {kind = "mul"}
// CHECK-NEXT: [[A1:%[0-9]+]] = soac.binop(%1, [[S]]) {kind = "mul"}
// CHECK-NEXT: [[SB:%[0-9]+]] = soac.binop(%1, %0) {kind = "mul"}
// CHECK-NEXT: [[C:%[0-9]+]] = soac.unop(%0) {kind = "cos"}
// CHECK-NEXT: [[A2:%[0-9]+]] = soac.binop([[SB]], [[C]]) {kind = "mul"}
// CHECK-NEXT: [[A:%[0-9]+]] = soac.binop([[A1]], [[A2]]) {kind = "add"}
// CHECK-NEXT: soac.return([[P]], [[A]])
"soac.func"() ({
^bb0(%x: f32, %dy: f32):
  %y:2 = "soac.vjp"(%x, %dy) ({
  ^bb0(%a: f32):
    %s = "soac.unop"(%a) {kind = "sin"} : (f32) -> f32
    %p = "soac.binop"(%a, %s) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%p) : (f32) -> ()
  }) : (f32, f32) -> (f32, f32)
  "soac.return"(%y#0, %y#1) : (f32, f32) -> ()
}) {sym_name = "scalar", function_type = (f32, f32) -> (f32, f32)} : () -> ()

// -----

// A sum of squares: the adjoint of the sum is dy replicated, and the
// adjoint map over the rows and their adjoints recomputes the lambda's
// body (dead code the later passes remove) and adds x̄ = d*x twice.
// CHECK-LABEL: sym_name = "sum_squares"
// CHECK-NOT: soac.vjp
// CHECK: ^bb0([[N:%[0-9]+]]: i64, [[XS:%[0-9]+]]: {{.*}}, [[DY:%[0-9]+]]: f32):
// CHECK: [[R:%[0-9]+]] = soac.replicate([[N]], [[DY]])
// CHECK-NEXT: soac.map([[N]], [[XS]], [[R]]) ({
// CHECK-NEXT: ^bb0([[X:%[0-9]+]]: f32, [[D:%[0-9]+]]: f32):
// CHECK: soac.binop([[D]], [[X]]) {kind = "mul"}
// CHECK: soac.binop([[D]], [[X]]) {kind = "mul"}
// CHECK: soac.binop({{%[0-9]+}}, {{%[0-9]+}}) {kind = "add"}
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %dy: f32):
  %y:2 = "soac.vjp"(%xs, %dy) ({
  ^bb0(%a: !fut.array<[%n]f32>):
    %sq = "soac.map"(%n, %a) ({
    ^bb0(%x: f32):
      %x2 = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%x2) : (f32) -> ()
    }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
    %s = "soac.reduce"(%n, %zero, %sq) ({
    ^bb0(%p: f32, %q: f32):
      %r = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%r) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%n]f32>) -> f32
    "soac.yield"(%s) : (f32) -> ()
  }) : (!fut.array<[%n]f32>, f32) -> (f32, !fut.array<[%n]f32>)
  "soac.return"(%y#0, %y#1) : (f32, !fut.array<[%n]f32>) -> ()
}) {sym_name = "sum_squares", function_type = (i64, !fut.array<[?]f32>, f32) -> (f32, !fut.array<[?]f32>)} : () -> ()
