// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-expand
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-expand | futmlir opt -

// Note [Memory expansion at the mem level]: each thread of the segmap
// makes an iota of %m elements (which it indexes, so it is made) and a
// map of it: both get a mem.expand block of one thread's bytes (8 * %m,
// saturating) before the segmap, bound in the body. An iota only a
// reduce reads is never made (Note [Virtual arrays]), and an array whose
// size the thread computes (%k) has no host size: neither is bound.
// CHECK-LABEL: sym_name = "rows"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[M:%[0-9]+]]: i64):
// CHECK: [[E1:%[0-9]+]] = mem.expand({{%[0-9]+}}) {layout = "interleaved"} : (i64) -> !mem.block<device>
// CHECK: [[E2:%[0-9]+]] = mem.expand({{%[0-9]+}}) {layout = "interleaved"} : (i64) -> !mem.block<device>
// CHECK-NEXT: segop.segmap([[N]])
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64):
// CHECK-NEXT: [[IS:%[0-9]+]] = soac.iota([[M]])
// CHECK-NEXT: mem.bind([[E1]], [[IS]])
// CHECK-NEXT: [[YS:%[0-9]+]] = soac.map([[M]], [[IS]])
// CHECK: mem.bind([[E2]], [[YS]])
// CHECK-NEXT: soac.iota([[M]])
// CHECK: soac.reduce(
// CHECK: soac.iota(
// CHECK-NOT: mem.bind
// CHECK: segop.yield(
"soac.func"() ({
^bb0(%n: i64, %m: i64):
  %r = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %is = "soac.iota"(%m) : (i64) -> !fut.array<[%m]i64>
    %ys = "soac.map"(%m, %is) ({
    ^bb0(%x: i64):
      %y = "soac.binop"(%x, %i) {kind = "mul"} : (i64, i64) -> i64
      "soac.yield"(%y) : (i64) -> ()
    }) : (i64, !fut.array<[%m]i64>) -> !fut.array<[%m]i64>
    %js = "soac.iota"(%m) : (i64) -> !fut.array<[%m]i64>
    %zero = "soac.constant"() {value = 0 : i64} : () -> i64
    %s = "soac.reduce"(%m, %zero, %js) ({
    ^bb0(%a: i64, %b: i64):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
      "soac.yield"(%c) : (i64) -> ()
    }) : (i64, i64, !fut.array<[%m]i64>) -> i64
    %k = "soac.binop"(%i, %m) {kind = "add"} : (i64, i64) -> i64
    %ks = "soac.iota"(%k) : (i64) -> !fut.array<[%k]i64>
    %a = "soac.index"(%is, %i) : (!fut.array<[%m]i64>, i64) -> i64
    %b = "soac.index"(%ys, %i) : (!fut.array<[%m]i64>, i64) -> i64
    %c = "soac.index"(%ks, %i) : (!fut.array<[%k]i64>, i64) -> i64
    %t = "soac.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
    %u = "soac.binop"(%t, %c) {kind = "add"} : (i64, i64) -> i64
    %v = "soac.binop"(%u, %s) {kind = "add"} : (i64, i64) -> i64
    "segop.yield"(%v) : (i64) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]i64>
  "soac.return"(%r) : (!fut.array<[%n]i64>) -> ()
}) {sym_name = "rows", function_type = (i64, i64) -> !fut.array<[?]i64>} : () -> ()
