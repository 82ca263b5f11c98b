// RUN: futmlir opt %s --pass-pipeline=segop-to-imp
// RUN: futmlir opt %s --pass-pipeline=segop-to-imp | futmlir opt -

// An entry point becomes an imp.func taking each array as a block and its
// sizes. The size parameter %n comes from the first array; the second
// must agree (a checked imp.assert). A segred with a mapped result is one
// loop carrying the accumulator, storing the mapped values into a fresh
// block; arrays are read through their LMADs (offset + i * stride).
// CHECK-LABEL: imp.func() {sym_name = "dot", function_type = (!mem.block<device>, i64, !mem.block<device>, i64) -> (f32, !mem.block<device>, i64), entry, in_types = [9 : i64, 1 : i64, 9 : i64, 1 : i64], out_types = [9 : i64, 0 : i64, 9 : i64, 1 : i64]}
// CHECK: ^bb0([[XS:%[0-9]+]]: !mem.block<device>, [[N:%[0-9]+]]: i64, [[YS:%[0-9]+]]: !mem.block<device>, [[M:%[0-9]+]]: i64):
// CHECK: [[SAME:%[0-9]+]] = soac.cmpop([[M]], [[N]]) {kind = "eq"}
// CHECK-NEXT: imp.assert([[SAME]], [[M]], [[N]]) {message = "argument 2 of entry point dot: dimension 1 has size {0}, but another argument gives the size {1}"}
// CHECK: [[OUT:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK-NEXT: [[SUM:%[0-9]+]] = imp.for({{%[0-9]+}}, [[N]], {{%[0-9]+}}, {{%[0-9]+}}) ({
// CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, [[ACC:%[0-9]+]]: f32):
// CHECK: [[X:%[0-9]+]] = imp.load([[XS]],
// CHECK: [[Y:%[0-9]+]] = imp.load([[YS]],
// CHECK: [[P:%[0-9]+]] = soac.binop([[X]], [[Y]]) {kind = "mul"}
// CHECK: imp.store([[OUT]], {{%[0-9]+}}, [[P]])
// CHECK-NEXT: [[NEXT:%[0-9]+]] = soac.binop([[ACC]], [[P]]) {kind = "add"}
// CHECK-NEXT: imp.yield([[NEXT]])
// CHECK: imp.return([[SUM]], [[OUT]], [[N]])
// CHECK-NOT: soac.func
// CHECK-NOT: segop.
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %s, %ps = "segop.segred"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.index"(%ys, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %p = "soac.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%p, %p) : (f32, f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%c) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> (f32, !fut.array<[%n]f32>)
  "soac.return"(%s, %ps) : (f32, !fut.array<[%n]f32>) -> ()
}) {sym_name = "dot", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> (f32, !fut.array<[?]f32>), entry, size_params = 1 : i64} : () -> ()
