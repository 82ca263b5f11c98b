// RUN: futmlir opt %s --pass-pipeline=segop-to-mem | futmlir opt - --pass-pipeline=segop-to-imp
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem | futmlir opt - --pass-pipeline=segop-to-imp | futmlir opt -

// mem → imp on the CPU (segop-to-imp, after the first stage gave the IR
// its mem.alloc and mem.bind): the entry point takes its array as a block
// and its size; the block the mem level allocated is the one the segmap's
// loop, an imp.for from 0 to the size, stores into, and the one returned.
// The loop loads from the argument's block at the loop index (offset 0,
// stride 1: the LMAD of a fresh array) and keeps the map's body op.
// CHECK-LABEL: imp.func() {sym_name = "double"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[IN:%[0-9]+]]: !mem.block<device>, {{%[0-9]+}}: i64):
// CHECK-NEXT: [[ONE:%[0-9]+]] = soac.constant() {value = 1 : i64}
// CHECK-NEXT: [[ZERO:%[0-9]+]] = soac.constant() {value = 0 : i64}
// CHECK: [[TWO:%[0-9]+]] = soac.constant() {value = 2.0 : f32}
// CHECK: [[OUT:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK-NOT: mem.alloc
// CHECK: imp.for([[ZERO]], [[N]], [[ONE]]) ({
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64):
// CHECK-NEXT: [[STRIDED:%[0-9]+]] = soac.binop([[I]], [[ONE]]) {kind = "mul"}
// CHECK-NEXT: [[AT:%[0-9]+]] = soac.binop([[ZERO]], [[STRIDED]]) {kind = "add"}
// CHECK-NEXT: [[X:%[0-9]+]] = imp.load([[IN]], [[AT]]) : (!mem.block<device>, i64) -> f32
// CHECK-NEXT: [[Y:%[0-9]+]] = soac.binop([[X]], [[TWO]]) {kind = "mul"}
// CHECK-NEXT: [[STRIDED:%[0-9]+]] = soac.binop([[I]], [[ONE]]) {kind = "mul"}
// CHECK-NEXT: [[AT:%[0-9]+]] = soac.binop([[ZERO]], [[STRIDED]]) {kind = "add"}
// CHECK-NEXT: imp.store([[OUT]], [[AT]], [[Y]]) : (!mem.block<device>, i64, f32) -> ()
// CHECK-NEXT: imp.yield()
// CHECK-NEXT: }) : (i64, i64, i64) -> ()
// CHECK-NEXT: imp.return([[OUT]], [[N]])
// CHECK-NOT: segop.
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
  %ys = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  "soac.return"(%ys) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "double", entry, function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
