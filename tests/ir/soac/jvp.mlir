// RUN: futmlir opt %s --pass-pipeline=soac-jvp
// RUN: futmlir opt %s --pass-pipeline=soac-jvp | futmlir opt -

// The product rule and a chain rule: d(x * sin x) = dx * sin x + x *
// (cos x * dx); the soac.jvp is gone, its results are the copy of the
// region and the tangent.
// CHECK-LABEL: sym_name = "scalar"
// CHECK-NOT: soac.jvp
// CHECK: [[S:%[0-9]+]] = soac.unop(%0) {kind = "sin"}
// CHECK-NEXT: [[C:%[0-9]+]] = soac.unop(%0) {kind = "cos"}
// CHECK-NEXT: [[DS:%[0-9]+]] = soac.binop([[C]], %1) {kind = "mul"}
// CHECK-NEXT: [[P:%[0-9]+]] = soac.binop(%0, [[S]]) {kind = "mul"}
// CHECK-NEXT: [[T1:%[0-9]+]] = soac.binop([[S]], %1) {kind = "mul"}
// CHECK-NEXT: [[T2:%[0-9]+]] = soac.binop(%0, [[DS]]) {kind = "mul"}
// CHECK-NEXT: [[T:%[0-9]+]] = soac.binop([[T1]], [[T2]]) {kind = "add"}
// CHECK-NEXT: soac.return([[P]], [[T]])
"soac.func"() ({
^bb0(%x: f32, %dx: f32):
  %y:2 = "soac.jvp"(%x, %dx) ({
  ^bb0(%a: f32):
    %s = "soac.unop"(%a) {kind = "sin"} : (f32) -> f32
    %p = "soac.binop"(%a, %s) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%p) : (f32) -> ()
  }) : (f32, f32) -> (f32, f32)
  "soac.return"(%y#0, %y#1) : (f32, f32) -> ()
}) {sym_name = "scalar", function_type = (f32, f32) -> (f32, f32)} : () -> ()

// -----

// A map over the array and its tangent, and a sum that reduces (value,
// tangent) pairs with the operator's tangent: the two additions.
// CHECK-LABEL: sym_name = "map_reduce"
// CHECK-NOT: soac.jvp
// CHECK: ^bb0([[N:%[0-9]+]]: i64, [[XS:%[0-9]+]]: {{.*}}, [[DXS:%[0-9]+]]: {{.*}}):
// CHECK-NEXT: [[M:%[0-9]+]]:2 = soac.map([[N]], [[XS]], [[DXS]]) ({
// CHECK-NEXT: ^bb0({{%[0-9]+}}: f32, {{%[0-9]+}}: f32):
// CHECK: soac.yield({{%[0-9]+}}, {{%[0-9]+}}) : (f32, f32) -> ()
// CHECK: [[R:%[0-9]+]]:2 = soac.reduce([[N]], {{%[0-9]+}}, {{%[0-9]+}}, [[M]]#0, [[M]]#1) ({
// CHECK-NEXT: ^bb0([[A:%[0-9]+]]: f32, [[DA:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32, [[DB:%[0-9]+]]: f32):
// CHECK-NEXT: soac.binop([[A]], [[B]]) {kind = "add"}
// CHECK-NEXT: soac.binop([[DA]], [[DB]]) {kind = "add"}
// CHECK: soac.return([[R]]#1)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %dxs: !fut.array<[%n]f32>):
  %y:2 = "soac.jvp"(%xs, %dxs) ({
  ^bb0(%a: !fut.array<[%n]f32>):
    %sq = "soac.map"(%n, %a) ({
    ^bb0(%x: f32):
      %x2 = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%x2) : (f32) -> ()
    }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
    %s = "soac.reduce"(%n, %zero, %sq) ({
    ^bb0(%u: f32, %v: f32):
      %w = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%w) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%n]f32>) -> f32
    "soac.yield"(%s) : (f32) -> ()
  }) : (!fut.array<[%n]f32>, !fut.array<[%n]f32>) -> (f32, f32)
  "soac.return"(%y#1) : (f32) -> ()
}) {sym_name = "map_reduce", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> f32} : () -> ()

// -----

// A loop carries the tangent of its float merge value (the integer
// counter gets none); a comparison and a boolean result have none: the
// tangent of the i1 result is `false`.
// CHECK-LABEL: sym_name = "loop"
// CHECK-NOT: soac.jvp
// CHECK: ^bb0([[N:%[0-9]+]]: i64, [[X:%[0-9]+]]: f64, [[DX:%[0-9]+]]: f64):
// CHECK-NEXT: [[L:%[0-9]+]]:2 = soac.loop([[N]], [[X]], [[DX]]) {form = "for"} ({
// CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, {{%[0-9]+}}: f64, {{%[0-9]+}}: f64):
// CHECK: }) : (i64, f64, f64) -> (f64, f64)
// CHECK: [[F:%[0-9]+]] = soac.constant() {value = false}
// CHECK-NEXT: soac.return([[L]]#1, [[F]])
"soac.func"() ({
^bb0(%n: i64, %x: f64, %dx: f64):
  %y:4 = "soac.jvp"(%x, %dx) ({
  ^bb0(%a: f64):
    %r = "soac.loop"(%n, %a) ({
    ^bb0(%i: i64, %acc: f64):
      %m = "soac.binop"(%acc, %a) {kind = "mul"} : (f64, f64) -> f64
      "soac.yield"(%m) : (f64) -> ()
    }) {form = "for"} : (i64, f64) -> f64
    %pos = "soac.cmpop"(%r, %a) {kind = "gt"} : (f64, f64) -> i1
    "soac.yield"(%r, %pos) : (f64, i1) -> ()
  }) : (f64, f64) -> (f64, i1, f64, i1)
  "soac.return"(%y#2, %y#3) : (f64, i1) -> ()
}) {sym_name = "loop", function_type = (i64, f64, f64) -> (f64, i1)} : () -> ()
