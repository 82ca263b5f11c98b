// RUN: futmlir opt %s --pass-pipeline='segop-to-imp{target=cuda vector-accesses=false}'
// RUN: futmlir opt %s --pass-pipeline='segop-to-imp{target=cuda vector-accesses=false}' | futmlir opt -

// On the CUDA target (here without the vector accesses' version of the
// kernel: Note [Vector accesses]) a segmap of scalars is an imp.kernel whose threads
// (blocks of 256) compute 4 points each, `threads` apart, reading all four
// before writing any; the launch has ceil(n / 1024) blocks. The kernel's
// parameters are the host values it reads (the grid, the size and the two
// blocks); host constants are cloned into it instead, so its index
// arithmetic folds. A point past the end reads the last one again and
// writes nothing.
// CHECK-LABEL: imp.kernel() {sym_name = "k0", function_type = (i64, i64, !mem.block<device>, !mem.block<device>) -> (), block_size = [256 : i64]}
// CHECK-NEXT: ^bb0(%0: i64, %1: i64, %2: !mem.block<device>, %3: !mem.block<device>):
// CHECK-NEXT: %4 = soac.constant() {value = 2.0 : f32}
// CHECK: imp.thread_id() {dim = 0 : i64}
// CHECK-NEXT: imp.block_id() {dim = 0 : i64}
// CHECK-NEXT: imp.block_dim() {dim = 0 : i64}
// CHECK: soac.select(
// CHECK: imp.load(%2,
// CHECK: imp.load(%2,
// CHECK: imp.load(%2,
// CHECK: imp.load(%2,
// CHECK-NOT: imp.load
// CHECK: imp.if(
// CHECK: imp.store(%3,
// CHECK: imp.if(
// CHECK: imp.store(%3,
// CHECK: imp.if(
// CHECK: imp.store(%3,
// CHECK: imp.if(
// CHECK: imp.store(%3,
// CHECK: imp.return()
// CHECK-LABEL: imp.func() {sym_name = "double"
// CHECK: mem.alloc(
// CHECK: {kind = "div"}
// CHECK-NEXT: imp.launch(
// CHECK-SAME: {callee = @k0}
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
}) {sym_name = "double", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>, entry, size_params = 1 : i64} : () -> ()
