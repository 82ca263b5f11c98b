// RUN: futmlir opt %s --pass-pipeline=soac-to-segop
// RUN: futmlir opt %s --pass-pipeline=soac-to-segop | futmlir opt -

// soac → segop: a host-level soac.map becomes a segop.segmap over the
// same size whose body reads its element with soac.index and keeps the
// map's body op; a soac.reduce of that result becomes a segop.segred whose
// first region reads the map's result and whose second is the operator.
// No SOAC is left at host level.
// CHECK-LABEL: sym_name = "map_reduce"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[XS:%[0-9]+]]: [
// CHECK-SAME: [[N]]]f32, [[K:%[0-9]+]]: f32):
// CHECK-NOT: soac.map
// CHECK: [[YS:%[0-9]+]] = segop.segmap([[N]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64):
// CHECK-NEXT: [[X:%[0-9]+]] = soac.index([[XS]], [[I]])
// CHECK-NEXT: [[Y:%[0-9]+]] = soac.binop([[X]], [[K]]) {kind = "mul"}
// CHECK-NEXT: segop.yield([[Y]])
// CHECK-NEXT: }) : (i64) -> [[[N]]]f32
// CHECK-NEXT: [[Z:%[0-9]+]] = soac.constant() {value = 0.0 : f32}
// CHECK-NEXT: [[S:%[0-9]+]] = segop.segred([[N]], [[Z]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[J:%[0-9]+]]: i64):
// CHECK-NEXT: [[E:%[0-9]+]] = soac.index([[YS]], [[J]])
// CHECK-NEXT: segop.yield([[E]])
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT: [[C:%[0-9]+]] = soac.binop([[A]], [[B]]) {kind = "add"}
// CHECK-NEXT: segop.yield([[C]])
// CHECK: soac.return([[YS]], [[S]])
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %k: f32):
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: f32):
    %y = "soac.binop"(%x, %k) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%y) : (f32) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %s = "soac.reduce"(%n, %zero, %ys) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"(%ys, %s) : (!fut.array<[%n]f32>, f32) -> ()
}) {sym_name = "map_reduce", function_type = (i64, !fut.array<[?]f32>, f32) -> (!fut.array<[?]f32>, f32)} : () -> ()
