// RUN: futmlir opt %s --pass-pipeline=explicit-allocations --split-input-file
// RUN: futmlir opt %s --pass-pipeline=explicit-allocations --split-input-file | futmlir opt - --split-input-file

// Each fresh array of the host code gets a block allocated just before
// the op that makes it, of its type's bytes (sizes times the element's
// bytes, the constants folded, the product saturating: Note [Byte sizes
// saturate]), and a mem.bind just after it. The arrays
// inside the segop's body stay as they are; a view (the slice) gets no
// block of its own.
// CHECK-LABEL: sym_name = "fresh"
// CHECK: %2 = soac.constant() {value = 8 : i64}
// CHECK: %10 = soac.binop(%2, %0) {kind = "mul"}
// CHECK-NEXT: %11 = soac.select(%9, %5, %10)
// CHECK-NEXT: %12 = mem.alloc(%11) {space = "device"}
// CHECK-NEXT: %13 = soac.iota(%0)
// CHECK-NEXT: mem.bind(%12, %13)
// CHECK: %14 = soac.constant() {value = 12 : i64}
// CHECK: %22 = soac.binop(%14, %0) {kind = "mul"}
// CHECK-NEXT: %23 = soac.select(%21, %17, %22)
// CHECK-NEXT: %24 = mem.alloc(%23) {space = "device"}
// CHECK-NEXT: %25 = segop.segmap(%0)
// CHECK: %27 = soac.replicate(
// CHECK-NOT: mem.alloc
// CHECK: mem.bind(%24, %25)
// CHECK: %32 = soac.slice(
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
// CHECK: %4 = soac.constant() {value = 4 : i64}
// CHECK: %12 = soac.binop(%4, %0) {kind = "mul"}
// CHECK-NEXT: %13 = soac.select(%11, %7, %12)
// CHECK-NEXT: %14 = mem.alloc(%13) {space = "device"}
// CHECK: %32 = mem.alloc(%31) {space = "device"}
// CHECK: %43 = mem.alloc(%42) {space = "device"}
// CHECK-NEXT: %44:3 = segop.filter(%0)
// CHECK: }) : (i64) -> (i64, [%0]i32, [%0]i32)
// CHECK-NEXT: mem.bind(%32, %44#1)
// CHECK-NEXT: mem.bind(%43, %44#2)
// CHECK: %51 = soac.if(%1) ({
// CHECK: %61 = soac.binop(%53, %44#0) {kind = "mul"}
// CHECK-NEXT: %62 = soac.select(%60, %56, %61)
// CHECK-NEXT: %63 = mem.alloc(%62)
// CHECK-NEXT: %64 = segop.segmap(%44#0)
// CHECK: mem.bind(%63, %64)
// CHECK-NEXT: soac.yield(%64)
// CHECK-NEXT: }, {
// CHECK-NEXT: soac.yield(%49)
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
