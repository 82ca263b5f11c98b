// RUN: futmlir opt %s --pass-pipeline=soac-vjp
// RUN: futmlir opt %s --pass-pipeline=soac-vjp | futmlir opt -

// The adjoint of a scan by `*` (Note [Scan and histogram adjoints]) has
// no sequential loop: after the primal scan, a map of the operator's
// Jacobians, a map reversing them into affine maps (M, b), and a scan
// composing them — (Ma, ba) then (Mg, bg) give (Mg·Ma, bg + Mg·ba) — whose
// b parts, reversed, feed the map of the elements' adjoints.
// CHECK-LABEL: sym_name = "scan_product"
// CHECK-NOT: soac.vjp
// CHECK-NOT: soac.loop
// CHECK: [[Y:%[0-9]+]] = soac.scan([[N:%[0-9]+]], {{%[0-9]+}}, [[XS:%[0-9]+]]) ({
// CHECK: soac.binop({{%[0-9]+}}, {{%[0-9]+}}) {kind = "mul"}
// CHECK-NOT: soac.loop
// CHECK: [[MB:%[0-9]+]]:2 = soac.map([[N]], {{%[0-9]+}}) ({
// CHECK-NOT: soac.loop
// CHECK: soac.scan([[N]], {{%[0-9]+}}, {{%[0-9]+}}, [[MB]]#0, [[MB]]#1) ({
// CHECK-NEXT: ^bb0([[MA:%[0-9]+]]: f32, [[BA:%[0-9]+]]: f32, [[MG:%[0-9]+]]: f32, [[BG:%[0-9]+]]: f32):
// CHECK-NEXT: soac.binop([[MG]], [[MA]]) {kind = "mul"}
// CHECK-NEXT: [[T:%[0-9]+]] = soac.binop([[MG]], [[BA]]) {kind = "mul"}
// CHECK-NEXT: soac.binop([[BG]], [[T]]) {kind = "add"}
// CHECK-NOT: soac.loop
// CHECK: [[XB:%[0-9]+]] = soac.map([[N]], {{%[0-9]+}}, [[XS]], {{%[0-9]+}}) ({
// CHECK-NOT: soac.loop
// CHECK: soac.return([[XB]])
// CHECK-NOT: soac.loop
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %c: !fut.array<[%n]f32>):
  %one = "soac.constant"() {value = 1.0 : f32} : () -> f32
  %r:2 = "soac.vjp"(%xs, %c) ({
  ^bb0(%a: !fut.array<[%n]f32>):
    %s = "soac.scan"(%n, %one, %a) ({
    ^bb0(%p: f32, %q: f32):
      %m = "soac.binop"(%p, %q) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%m) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    "soac.yield"(%s) : (!fut.array<[%n]f32>) -> ()
  }) : (!fut.array<[%n]f32>, !fut.array<[%n]f32>) -> (!fut.array<[%n]f32>, !fut.array<[%n]f32>)
  "soac.return"(%r#1) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "scan_product", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
