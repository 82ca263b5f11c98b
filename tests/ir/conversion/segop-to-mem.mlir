// RUN: futmlir opt %s --pass-pipeline=segop-to-mem
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem | futmlir opt -

// segop → mem (segop-to-mem): the array a segmap makes gets a
// device block allocated before it, of its byte size (4 bytes times the
// size, saturating), and a mem.bind of that block to the array after it.
// The function's input is not allocated (its memory is the caller's):
// that block is the only one.
// CHECK-LABEL: sym_name = "double"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, {{%[0-9]+}}: [
// CHECK-SAME: [[N]]]f32):
// CHECK-NOT: mem.alloc
// CHECK: [[FOUR:%[0-9]+]] = soac.constant() {value = 4 : i64}
// CHECK: [[MAX:%[0-9]+]] = soac.constant() {value = 9223372036854775807 : i64}
// CHECK: [[BYTES:%[0-9]+]] = soac.binop([[FOUR]], [[N]]) {kind = "mul"}
// CHECK-NEXT: [[SAT:%[0-9]+]] = soac.select({{%[0-9]+}}, [[MAX]], [[BYTES]])
// CHECK-NEXT: [[BLOCK:%[0-9]+]] = mem.alloc([[SAT]]) {space = "device"} : (i64) -> !mem.block<device>
// CHECK-NEXT: [[YS:%[0-9]+]] = segop.segmap([[N]])
// CHECK-NOT: mem.alloc
// CHECK: mem.bind([[BLOCK]], [[YS]]) : (!mem.block<device>, [
// CHECK-SAME: [[N]]]f32) -> ()
// CHECK-NEXT: soac.return([[YS]])
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
}) {sym_name = "double", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
