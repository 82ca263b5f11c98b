// RUN: futmlir opt %s --pass-pipeline=segop-to-imp
// RUN: futmlir opt %s --pass-pipeline=segop-to-imp | futmlir opt -

// A call kept as a call (Note [Functions at the imp level]): an array
// argument passes its whole LMAD (block, offset, size, stride), an array
// result comes back as a block the caller owns and its size; the callee
// becomes an imp.func without `entry`, which copies a result it does not
// own (its argument) into a fresh block. A call in a segop's body calls
// the same function (on the CPU target segops are loops).
// CHECK-LABEL: imp.func() {sym_name = "main"
// CHECK: %5:2 = imp.call(%1, %0, %4, %1, %3)
// CHECK-SAME: {callee = @keep} : (i64, !mem.block<device>, i64, i64, i64) -> (!mem.block<device>, i64)
// CHECK: imp.for
// CHECK: {callee = @inc} : (i32) -> i32
// CHECK: mem.free(%5#0)
// CHECK-LABEL: imp.func() {sym_name = "keep", function_type = (i64, !mem.block<device>, i64, i64, i64) -> (!mem.block<device>, i64)}
// CHECK: mem.alloc
// CHECK: imp.return
// CHECK-LABEL: imp.func() {sym_name = "inc", function_type = (i32) -> i32}
// CHECK-NOT: soac.func
"soac.func"() ({
^bb0(%x: i32):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %y = "soac.binop"(%x, %one) {kind = "add"} : (i32, i32) -> i32
  "soac.return"(%y) : (i32) -> ()
}) {sym_name = "inc", function_type = (i32) -> i32, noinline} : () -> ()
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  "soac.return"(%xs) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "keep", function_type = (i64, !fut.array<[?]i32>) -> !fut.array<[?]i32>, noinline} : () -> ()
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %ys = "soac.apply"(%n, %xs) {callee = @keep} : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %zs = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %y = "soac.index"(%ys, %i) : (!fut.array<[%n]i32>, i64) -> i32
    %z = "soac.apply"(%y) {callee = @inc} : (i32) -> i32
    "segop.yield"(%z) : (i32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]i32>
  "soac.return"(%zs) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "main", function_type = (i64, !fut.array<[?]i32>) -> !fut.array<[?]i32>, entry, size_params = 1 : i64} : () -> ()
