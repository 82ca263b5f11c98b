// RUN: futmlir opt %s --pass-pipeline=segop-to-mem --split-input-file
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem --split-input-file | futmlir opt - --split-input-file

// Each fresh array of the host code gets a block allocated just before
// the op that makes it, of its type's bytes (sizes times the element's
// bytes, the constants folded, the product saturating: Note [Byte sizes
// saturate]), and a mem.bind just after it. The arrays
// inside the segop's body stay as they are; a view (the slice) gets no
// block of its own.
// CHECK-LABEL: sym_name = "fresh"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, {{%[0-9]+}}: f32):
// CHECK: [[EIGHT:%[0-9]+]] = soac.constant() {value = 8 : i64}
// CHECK: [[BYTES:%[0-9]+]] = soac.binop([[EIGHT]], [[N]]) {kind = "mul"}
// CHECK-NEXT: [[SIZE:%[0-9]+]] = soac.select({{%[0-9]+}}, {{%[0-9]+}}, [[BYTES]])
// CHECK-NEXT: [[BLOCK:%[0-9]+]] = mem.alloc([[SIZE]]) {space = "device"}
// CHECK-NEXT: [[XS:%[0-9]+]] = soac.iota([[N]])
// CHECK-NEXT: mem.bind([[BLOCK]], [[XS]])
// CHECK: [[TWELVE:%[0-9]+]] = soac.constant() {value = 12 : i64}
// CHECK: [[BYTES2:%[0-9]+]] = soac.binop([[TWELVE]], [[N]]) {kind = "mul"}
// CHECK-NEXT: [[SIZE2:%[0-9]+]] = soac.select({{%[0-9]+}}, {{%[0-9]+}}, [[BYTES2]])
// CHECK-NEXT: [[BLOCK2:%[0-9]+]] = mem.alloc([[SIZE2]]) {space = "device"}
// CHECK-NEXT: [[YS:%[0-9]+]] = segop.segmap([[N]])
// CHECK: {{%[0-9]+}} = soac.replicate(
// CHECK-NOT: mem.alloc
// CHECK: mem.bind([[BLOCK2]], [[YS]])
// CHECK: {{%[0-9]+}} = soac.slice(
// CHECK-NEXT: soac.return(
"soac.func"() ({
^bb0(%n: i64, %x: f32):
  %xs = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  %ys = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %r = "soac.replicate"(%n, %x) : (i64, f32) -> !fut.array<[%n]f32>
    %three = "soac.constant"() {value = 3 : i64} : () -> i64
    %z = "soac.replicate"(%three, %x) : (i64, f32) -> !fut.array<[3]f32>
    "segop.yield"(%z) : (!fut.array<[3]f32>) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n][3]f32>
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %s = "soac.slice"(%xs, %zero, %n, %one) : (!fut.array<[%n]i64>, i64, i64, i64) -> !fut.array<[%n]i64>
  "soac.return"(%s, %ys) : (!fut.array<[%n]i64>, !fut.array<[%n][3]f32>) -> ()
}) {sym_name = "fresh", function_type = (i64, f32) -> (!fut.array<[?]i64>, !fut.array<[?][3]f32>)} : () -> ()

// -----

// A filter's results get blocks of its input's size, the most it keeps;
// an op of several results gets one block for each array, the binds in
// order; arrays made in a branch get their blocks in the branch.
// CHECK-LABEL: sym_name = "filter"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[C:%[0-9]+]]: bool, {{%[0-9]+}}: [
// CHECK-SAME: [[N]]]i32):
// CHECK: [[FOUR:%[0-9]+]] = soac.constant() {value = 4 : i64}
// CHECK: [[BYTES:%[0-9]+]] = soac.binop([[FOUR]], [[N]]) {kind = "mul"}
// CHECK-NEXT: [[SIZE:%[0-9]+]] = soac.select({{%[0-9]+}}, {{%[0-9]+}}, [[BYTES]])
// CHECK-NEXT: {{%[0-9]+}} = mem.alloc([[SIZE]]) {space = "device"}
// CHECK: [[BLOCK1:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK: [[BLOCK2:%[0-9]+]] = mem.alloc({{%[0-9]+}}) {space = "device"}
// CHECK-NEXT: [[KEPT:%[0-9]+]]:3 = segop.filter([[N]])
// CHECK: }) : (i64) -> (i64, [[[N]]]i32, [[[N]]]i32)
// CHECK-NEXT: mem.bind([[BLOCK1]], [[KEPT]]#1)
// CHECK-NEXT: mem.bind([[BLOCK2]], [[KEPT]]#2)
// CHECK: {{%[0-9]+}} = soac.if([[C]]) ({
// CHECK: [[BYTES3:%[0-9]+]] = soac.binop({{%[0-9]+}}, [[KEPT]]#0) {kind = "mul"}
// CHECK-NEXT: [[SIZE3:%[0-9]+]] = soac.select({{%[0-9]+}}, {{%[0-9]+}}, [[BYTES3]])
// CHECK-NEXT: [[BLOCK3:%[0-9]+]] = mem.alloc([[SIZE3]])
// CHECK-NEXT: [[YS:%[0-9]+]] = segop.segmap([[KEPT]]#0)
// CHECK: mem.bind([[BLOCK3]], [[YS]])
// CHECK-NEXT: soac.yield([[YS]])
// CHECK-NEXT: }, {
// CHECK-NEXT: soac.yield({{%[0-9]+}})
soac.func() {sym_name = "filter", function_type = (i64, i1, !fut.array<[?]i32>) -> (!fut.array<[?]i32>, !fut.array<[?]i32>), entry, size_params = 1 : i64} ({
^bb0(%0: i64, %1: bool, %2: [%0]i32):
  %3 = soac.constant() {value = 2 : i32} : () -> i32
  %4 = segop.segmap(%0) {level = "thread"} ({
  ^bb0(%5: i64):
    %6 = soac.index(%2, %5) : ([%0]i32, i64) -> i32
    %7 = soac.binop(%6, %3) {kind = "mul"} : (i32, i32) -> i32
    segop.yield(%7) : (i32) -> ()
  }) : (i64) -> [%0]i32
  %8 = soac.constant() {value = 0 : i32} : () -> i32
  %9 = soac.constant() {value = 0 : i64} : () -> i64
  %10 = soac.constant() {value = 1 : i64} : () -> i64
  %11:3 = segop.filter(%0) {level = "thread"} ({
  ^bb0(%12: i64):
    %13 = soac.index(%2, %12) : ([%0]i32, i64) -> i32
    %14 = soac.index(%4, %12) : ([%0]i32, i64) -> i32
    %15 = soac.cmpop(%13, %8) {kind = "gt"} : (i32, i32) -> bool
    segop.yield(%15, %13, %14) : (bool, i32, i32) -> ()
  }) : (i64) -> (i64, [%0]i32, [%0]i32)
  %16 = soac.slice(%11#1, %9, %11#0, %10) : ([%0]i32, i64, i64, i64) -> [%11#0]i32
  %17 = soac.slice(%11#2, %9, %11#0, %10) : ([%0]i32, i64, i64, i64) -> [%11#0]i32
  %18 = soac.if(%1) ({
    %19 = soac.constant() {value = 1 : i32} : () -> i32
    %20 = segop.segmap(%11#0) {level = "thread"} ({
    ^bb0(%21: i64):
      %22 = soac.index(%16, %21) : ([%11#0]i32, i64) -> i32
      %23 = soac.binop(%22, %19) {kind = "add"} : (i32, i32) -> i32
      segop.yield(%23) : (i32) -> ()
    }) : (i64) -> [%11#0]i32
    soac.yield(%20) : ([%11#0]i32) -> ()
  }, {
    soac.yield(%16) : ([%11#0]i32) -> ()
  }) : (bool) -> [%11#0]i32
  soac.return(%18, %17) : ([%11#0]i32, [%11#0]i32) -> ()
}) : () -> ()
