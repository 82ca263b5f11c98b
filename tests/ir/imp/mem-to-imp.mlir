// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-reuse,ir-dce,segop-to-imp
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-reuse,ir-dce,segop-to-imp | futmlir opt -

// segop-to-imp writes each result the mem level bound into its block:
// the only allocations are the mem level's (the byte sizes it computed),
// two blocks for four arrays (mem-reuse gave %c %a's block and %d
// %b's); %d's block is returned as it is, %a's freed.
// CHECK-LABEL: sym_name = "chain"
// CHECK-NEXT: ^bb0({{%[0-9]+}}: !mem.block<device>, [[N:%[0-9]+]]: i64):
// CHECK: [[BLOCK_A:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK: imp.store([[BLOCK_A]], {{%[0-9]+}}, {{%[0-9]+}})
// CHECK: [[BLOCK_B:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK-NOT: mem.alloc
// CHECK: imp.store([[BLOCK_B]], {{%[0-9]+}}, {{%[0-9]+}})
// CHECK: imp.store([[BLOCK_A]], {{%[0-9]+}}, {{%[0-9]+}})
// CHECK: imp.store([[BLOCK_B]], {{%[0-9]+}}, {{%[0-9]+}})
// CHECK-NEXT: imp.yield()
// CHECK-NEXT: }) : (i64, i64, i64) -> ()
// CHECK-NEXT: mem.free([[BLOCK_A]])
// CHECK-NEXT: imp.return([[BLOCK_B]], [[N]])
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
  %a = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  %b = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%a, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  %c = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%b, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  %d = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%c, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "sub"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  "soac.return"(%d) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "chain", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>, entry, size_params = 1 : i64} : () -> ()
