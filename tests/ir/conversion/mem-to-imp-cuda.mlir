// RUN: futmlir opt %s --pass-pipeline=segop-to-mem | futmlir opt - '--pass-pipeline=segop-to-imp{target=cuda vector-accesses=false}'
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem | futmlir opt - '--pass-pipeline=segop-to-imp{target=cuda vector-accesses=false}' | futmlir opt -

// mem → imp for CUDA (without the vector accesses' version of the kernel,
// which tests/ir/conversion/vector-accesses.fut shows): the segmap becomes an imp.kernel that loads from its
// first block parameter and stores into its second, guarded by the thread's
// index being below the size; the entry point allocates the output block
// (the mem level's mem.alloc), launches the kernel with the argument's
// block and that one, and returns it.
// CHECK-LABEL: imp.kernel() {sym_name = "[[K:k[0-9]+]]"
// CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, [[KN:%[0-9]+]]: i64, [[KIN:%[0-9]+]]: !mem.block<device>, [[KOUT:%[0-9]+]]: !mem.block<device>):
// CHECK: imp.thread_id() {dim = 0 : i64}
// CHECK: [[IN_RANGE:%[0-9]+]] = soac.cmpop({{%[0-9]+}}, [[KN]]) {kind = "lt"}
// CHECK: [[X:%[0-9]+]] = imp.load([[KIN]], {{%[0-9]+}})
// CHECK-NEXT: [[Y:%[0-9]+]] = soac.binop([[X]], {{%[0-9]+}}) {kind = "mul"} : (f32, f32) -> f32
// CHECK: imp.if([[IN_RANGE]]) ({
// CHECK: imp.store([[KOUT]], {{%[0-9]+}}, [[Y]])
// CHECK-LABEL: imp.func() {sym_name = "double"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[IN:%[0-9]+]]: !mem.block<device>, {{%[0-9]+}}: i64):
// CHECK: [[OUT:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK-NOT: imp.for
// CHECK: imp.launch(
// CHECK-SAME: [[IN]], [[OUT]]) {callee = @[[K]]}
// CHECK-NEXT: imp.return([[OUT]], [[N]])
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
