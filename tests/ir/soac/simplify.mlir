// RUN: futmlir opt %s --pass-pipeline=soac-simplify
// RUN: futmlir opt %s --pass-pipeline=soac-simplify | futmlir opt -

// Hoisting: the map, the reduction over xs and the constant do not depend
// on the loop, so they move before it.
// CHECK-LABEL: sym_name = "hoist"
// CHECK: soac.map(%0, %1)
// CHECK: soac.reduce(%0, %3, %5)
// CHECK: soac.loop(%2, %3)
// CHECK-NEXT: ^bb0(%13: i64, %14: f32):
// CHECK-NEXT: soac.binop(%14, %8) {kind = "add"}
// CHECK-NEXT: soac.yield(%15)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %k: i64):
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %r = "soac.loop"(%k, %z) ({
  ^bb0(%i: i64, %acc: f32):
    %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
    %ys = "soac.map"(%n, %xs) ({
    ^bb0(%x: f32):
      %y = "soac.binop"(%x, %two) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%y) : (f32) -> ()
    }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    %s = "soac.reduce"(%n, %z, %ys) ({
    ^bb0(%a: f32, %b: f32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%c) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%n]f32>) -> f32
    %acc2 = "soac.binop"(%acc, %s) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%acc2) : (f32) -> ()
  }) {form = "for"} : (i64, f32) -> f32
  "soac.return"(%r) : (f32) -> ()
}) {sym_name = "hoist", function_type = (i64, !fut.array<[?]f32>, i64) -> f32} : () -> ()

// A division may fail, and the loop may run no iteration: it leaves the
// loop under `if k > 0` (Note [Hoisting]), with 0 otherwise. (The sum of
// the quotient then has a closed form, and the loop goes.)
// CHECK-LABEL: sym_name = "no_hoist_div"
// CHECK: {kind = "gt"}
// CHECK-NEXT: = soac.if(
// CHECK-NEXT: {kind = "div"}
// CHECK-NEXT: soac.yield(
// CHECK-NEXT: }, {
// CHECK-NEXT: soac.yield(
// CHECK-NOT: soac.loop
// CHECK: soac.return
"soac.func"() ({
^bb0(%a: i64, %b: i64, %k: i64):
  %z = "soac.constant"() {value = 0 : i64} : () -> i64
  %r = "soac.loop"(%k, %z) ({
  ^bb0(%i: i64, %acc: i64):
    %q = "soac.binop"(%a, %b) {kind = "div"} : (i64, i64) -> i64
    %acc2 = "soac.binop"(%acc, %q) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%acc2) : (i64) -> ()
  }) {form = "for"} : (i64, i64) -> i64
  "soac.return"(%r) : (i64) -> ()
}) {sym_name = "no_hoist_div", function_type = (i64, i64, i64) -> i64} : () -> ()

// Not hoisted: the array is updated in place in each iteration.

// Not hoisted: the array is updated in place in each iteration.
// CHECK-LABEL: sym_name = "no_hoist_consumed"
// CHECK: soac.loop(
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: soac.replicate(
// CHECK-NEXT: soac.update(
"soac.func"() ({
^bb0(%n: i64, %k: i64):
  %z = "soac.constant"() {value = 0 : i64} : () -> i64
  %r = "soac.loop"(%k, %z) ({
  ^bb0(%i: i64, %acc: i64):
    %zs = "soac.replicate"(%n, %z) : (i64, i64) -> !fut.array<[%n]i64>
    %ws = "soac.update"(%zs, %z, %i) : (!fut.array<[%n]i64>, i64, i64) -> !fut.array<[%n]i64>
    %w = "soac.index"(%ws, %z) : (!fut.array<[%n]i64>, i64) -> i64
    %acc2 = "soac.binop"(%acc, %w) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%acc2) : (i64) -> ()
  }) {form = "for"} : (i64, i64) -> i64
  "soac.return"(%r) : (i64) -> ()
}) {sym_name = "no_hoist_consumed", function_type = (i64, i64) -> i64} : () -> ()

// Unused results: the map drops %b, the if drops its second result, the
// loop drops the parameter that only feeds itself.

// Unused results: the map drops its second array, the `if` goes (its
// first result is %one on both branches, its second is unused), the loop
// drops the parameter that only feeds itself.
// CHECK-LABEL: sym_name = "unused"
// CHECK: %40 = soac.map(%35, %36)
// CHECK: soac.yield(%42) : (i32) -> ()
// CHECK-NEXT: }) : (i64, [%35]i32) -> [%35]i32
// CHECK-NOT: soac.if
// CHECK: %43 = soac.loop(%38, %39) {form = "for"}
// CHECK-NEXT: ^bb0(%44: i64, %45: i32):
// CHECK-NEXT: kind = "mul"
// CHECK-NEXT: soac.yield(%46) : (i32) -> ()
// CHECK: soac.return(%40, %43)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %c: i1, %k: i64):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %a, %b = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %one) {kind = "add"} : (i32, i32) -> i32
    %w = "soac.binop"(%x, %one) {kind = "sub"} : (i32, i32) -> i32
    "soac.yield"(%y, %w) : (i32, i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> (!fut.array<[%n]i32>, !fut.array<[%n]i32>)
  %p, %q = "soac.if"(%c) ({
    %t = "soac.binop"(%one, %one) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%one, %t) : (i32, i32) -> ()
  }, {
    "soac.yield"(%one, %one) : (i32, i32) -> ()
  }) : (i1) -> (i32, i32)
  %l:2 = "soac.loop"(%k, %p, %one) ({
  ^bb0(%i: i64, %u: i32, %v: i32):
    %u2 = "soac.binop"(%u, %u) {kind = "mul"} : (i32, i32) -> i32
    %v2 = "soac.binop"(%v, %u) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%u2, %v2) : (i32, i32) -> ()
  }) {form = "for"} : (i64, i32, i32) -> (i32, i32)
  "soac.return"(%a, %l#0) : (!fut.array<[%n]i32>, i32) -> ()
}) {sym_name = "unused", function_type = (i64, !fut.array<[?]i32>, i1, i64) -> (!fut.array<[?]i32>, i32)} : () -> ()

// A loop of no iterations is its initial value, one of one iteration its
// body; a branch on a constant is the branch taken.
// CHECK-LABEL: sym_name = "trivial"
// CHECK-NEXT: ^bb0(%47: i64, %48: [%47]i32, %49: i32):
// CHECK-NEXT: %50 = soac.binop(%49, %49) {kind = "mul"}
// CHECK-NEXT: %51 = soac.binop(%50, %49) {kind = "add"}
// CHECK-NEXT: soac.return(%51)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %t = "soac.constant"() {value = true} : () -> i1
  %r0 = "soac.loop"(%zero, %x) ({
  ^bb0(%i: i64, %a: i32):
    %b = "soac.binop"(%a, %a) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%b) : (i32) -> ()
  }) {form = "for"} : (i64, i32) -> i32
  %r1 = "soac.loop"(%one, %r0) ({
  ^bb0(%i: i64, %a: i32):
    %b = "soac.binop"(%a, %a) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%b) : (i32) -> ()
  }) {form = "for"} : (i64, i32) -> i32
  %r2 = "soac.if"(%t) ({
    %c = "soac.binop"(%r1, %x) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
    "soac.yield"(%x) : (i32) -> ()
  }) : (i1) -> i32
  "soac.return"(%r2) : (i32) -> ()
}) {sym_name = "trivial", function_type = (i64, !fut.array<[?]i32>, i32) -> i32} : () -> ()

// SOACs over one row: the lambda on that row, a replicate of one element,
// and the reduction's operator applied once (0 + x folds to x).
// CHECK-LABEL: sym_name = "size_one"
// CHECK-NOT: soac.map
// CHECK-NOT: soac.reduce
// CHECK: %56 = soac.index(%52, %55)
// CHECK-NEXT: %57 = soac.index(%53, %55)
// CHECK-NEXT: %58 = soac.binop(%56, %57) {kind = "mul"}
// CHECK-NEXT: %59 = soac.replicate(%54, %58) : (i64, i32) -> [%54]i32
// CHECK-NEXT: soac.return(%59, %58)
"soac.func"() ({
^bb0(%xs: !fut.array<[1]i32>, %ys: !fut.array<[1]i32>):
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %zs = "soac.map"(%one, %xs, %ys) ({
  ^bb0(%x: i32, %y: i32):
    %z = "soac.binop"(%x, %y) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, !fut.array<[1]i32>, !fut.array<[1]i32>) -> !fut.array<[%one]i32>
  %s = "soac.reduce"(%one, %zero, %zs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%one]i32>) -> i32
  "soac.return"(%zs, %s) : (!fut.array<[%one]i32>, i32) -> ()
}) {sym_name = "size_one", function_type = (!fut.array<[1]i32>, !fut.array<[1]i32>) -> (!fut.array<[?]i32>, i32)} : () -> ()

// Views and sizes: the two transpositions cancel and the reshape to the
// same shape goes, so the `if` yields xs or its copy; both have n rows,
// so its result type says so and the size of it is n. The map yields
// its row (xs itself) and a value from outside (a replicate). The loop
// passes its array on unchanged: its result is xs.
// CHECK-LABEL: sym_name = "sizes_views_copies"
// CHECK-NOT: soac.rearrange
// CHECK-NOT: soac.reshape
// CHECK: %66 = soac.if(%63)
// CHECK-NEXT: soac.yield(%62)
// CHECK: soac.copy(%62)
// CHECK: }) : (bool) -> [%60][%61]f32
// CHECK-NEXT: %68 = soac.replicate(%60, %65) : (i64, f32) -> [%60]f32
// CHECK-NEXT: %69 = soac.loop(%64, %60) {form = "for"}
// CHECK-NEXT: ^bb0(%70: i64, %71: i64):
// CHECK: soac.return(%66, %68, %62, %69)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n][%m]f32>, %c: i1, %k: i64, %v: f32):
  %t = "soac.rearrange"(%xs) {perm = [1, 0]} : (!fut.array<[%n][%m]f32>) -> !fut.array<[%m][%n]f32>
  %tt = "soac.rearrange"(%t) {perm = [1, 0]} : (!fut.array<[%m][%n]f32>) -> !fut.array<[%n][%m]f32>
  %r = "soac.reshape"(%tt, %n, %m) : (!fut.array<[%n][%m]f32>, i64, i64) -> !fut.array<[%n][%m]f32>
  %w = "soac.if"(%c) ({
    "soac.yield"(%r) : (!fut.array<[%n][%m]f32>) -> ()
  }, {
    %cp = "soac.copy"(%xs) : (!fut.array<[%n][%m]f32>) -> !fut.array<[%n][%m]f32>
    "soac.yield"(%cp) : (!fut.array<[%n][%m]f32>) -> ()
  }) : (i1) -> !fut.array<[?][%m]f32>
  %sz = "soac.size"(%w) {dim = 0 : i64} : (!fut.array<[?][%m]f32>) -> i64
  %ids, %reps = "soac.map"(%n, %xs) ({
  ^bb0(%row: !fut.array<[%m]f32>):
    "soac.yield"(%row, %v) : (!fut.array<[%m]f32>, f32) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> (!fut.array<[%n][%m]f32>, !fut.array<[%n]f32>)
  %l:2 = "soac.loop"(%k, %ids, %sz) ({
  ^bb0(%i: i64, %acc: !fut.array<[%n][%m]f32>, %s: i64):
    %s2 = "soac.binop"(%s, %s) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%acc, %s2) : (!fut.array<[%n][%m]f32>, i64) -> ()
  }) {form = "for"} : (i64, !fut.array<[%n][%m]f32>, i64) -> (!fut.array<[?][%m]f32>, i64)
  "soac.return"(%w, %reps, %l#0, %l#1) : (!fut.array<[?][%m]f32>, !fut.array<[%n]f32>, !fut.array<[?][%m]f32>, i64) -> ()
}) {sym_name = "sizes_views_copies", function_type = (i64, i64, !fut.array<[?][?]f32>, i1, i64, f32) -> (!fut.array<[?][?]f32>, !fut.array<[?]f32>, !fut.array<[?][?]f32>, i64)} : () -> ()

// Loop closed forms (Note [Loop closed forms]): a parameter that takes a
// value from outside is that value when the loop runs at all; one that
// adds the same value each iteration is the initial value plus the count
// times it (the count in the parameter's type). The loop goes.
// CHECK-LABEL: sym_name = "closed_forms"
// CHECK-NOT: soac.loop
// CHECK: {kind = "gt"} : (i32, i32) -> bool
// CHECK: soac.convop
// CHECK: kind = "mul"
// CHECK: kind = "add"
// CHECK-NOT: soac.loop
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i32, %a: i32, %d: i64, %c: i64):
  %r:2 = "soac.loop"(%n, %a, %c) ({
  ^bb0(%i: i32, %x: i32, %acc: i64):
    %acc2 = "soac.binop"(%acc, %d) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%a, %acc2) : (i32, i64) -> ()
  }) {form = "for"} : (i32, i32, i64) -> (i32, i64)
  "soac.return"(%r#0, %r#1) : (i32, i64) -> ()
}) {sym_name = "closed_forms", function_type = (i32, i32, i64, i64) -> (i32, i64)} : () -> ()

// No closed form: the parameter feeds another (`y` sees the old `x`), and
// a product is no sum.
// CHECK-LABEL: sym_name = "no_closed_form"
// CHECK: soac.loop
"soac.func"() ({
^bb0(%n: i64, %a: i64, %b: i64):
  %r:2 = "soac.loop"(%n, %a, %b) ({
  ^bb0(%i: i64, %x: i64, %y: i64):
    %y2 = "soac.binop"(%y, %x) {kind = "mul"} : (i64, i64) -> i64
    "soac.yield"(%b, %y2) : (i64, i64) -> ()
  }) {form = "for"} : (i64, i64, i64) -> (i64, i64)
  "soac.return"(%r#0, %r#1) : (i64, i64) -> ()
}) {sym_name = "no_closed_form", function_type = (i64, i64, i64) -> (i64, i64)} : () -> ()

// `#[unroll]` with a constant trip count: one copy of the body per
// iteration, with the iteration number as a constant.
// CHECK-LABEL: sym_name = "unrolled"
// CHECK-NOT: soac.loop
// CHECK: {value = 0 : i64}
// CHECK: soac.index(
// CHECK: {value = 1 : i64}
// CHECK: soac.index(
// CHECK: {value = 2 : i64}
// CHECK: soac.index(
// CHECK-NOT: soac.index
// CHECK: soac.return
"soac.func"() ({
^bb0(%xs: !fut.array<[3]i32>, %s: i32):
  %three = "soac.constant"() {value = 3 : i64} : () -> i64
  %r = "soac.loop"(%three, %s) ({
  ^bb0(%i: i64, %acc: i32):
    %x = "soac.index"(%xs, %i) : (!fut.array<[3]i32>, i64) -> i32
    %acc2 = "soac.binop"(%acc, %x) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%acc2) : (i32) -> ()
  }) {form = "for", unroll} : (i64, i32) -> i32
  "soac.return"(%r) : (i32) -> ()
}) {sym_name = "unrolled", function_type = (!fut.array<[3]i32>, i32) -> i32} : () -> ()

// Without the attribute the loop stays.
// CHECK-LABEL: sym_name = "not_unrolled"
// CHECK: soac.loop
"soac.func"() ({
^bb0(%xs: !fut.array<[3]i32>, %s: i32):
  %three = "soac.constant"() {value = 3 : i64} : () -> i64
  %r = "soac.loop"(%three, %s) ({
  ^bb0(%i: i64, %acc: i32):
    %x = "soac.index"(%xs, %i) : (!fut.array<[3]i32>, i64) -> i32
    %acc2 = "soac.binop"(%acc, %x) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%acc2) : (i32) -> ()
  }) {form = "for"} : (i64, i32) -> i32
  "soac.return"(%r) : (i32) -> ()
}) {sym_name = "not_unrolled", function_type = (!fut.array<[3]i32>, i32) -> i32} : () -> ()

// Indexing with iota (Note [Indexing with iota]): the map over `iota n`
// indexing `xs` and row `j` of `m` maps over `xs` and `m[j]` instead; the
// iota input goes. An element of an `iota` of i32 is computed from its
// index, and an element of a `replicate` is the replicated value.
// CHECK-LABEL: sym_name = "iota_indexing"
// CHECK-NOT: soac.iota
// CHECK: = soac.index(
// CHECK: = soac.map(
// CHECK-NOT: soac.index
// CHECK: {kind = "trunc"}
// CHECK-NOT: soac.iota
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %k: i64, %j: i64, %xs: !fut.array<[%n]i32>, %m: !fut.array<[%k][%n]i32>, %v: i32):
  %is = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  %ys = "soac.map"(%n, %is) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]i32>, i64) -> i32
    %y = "soac.index"(%m, %j, %i) : (!fut.array<[%k][%n]i32>, i64, i64) -> i32
    %s = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%s) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i64>) -> !fut.array<[%n]i32>
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %js = "soac.iota"(%n, %zero, %one) : (i64, i32, i32) -> !fut.array<[%n]i32>
  %e = "soac.index"(%js, %j) : (!fut.array<[%n]i32>, i64) -> i32
  %r = "soac.replicate"(%n, %v) : (i64, i32) -> !fut.array<[%n]i32>
  %f = "soac.index"(%r, %k) : (!fut.array<[%n]i32>, i64) -> i32
  "soac.return"(%ys, %e, %f) : (!fut.array<[%n]i32>, i32, i32) -> ()
}) {sym_name = "iota_indexing", function_type = (i64, i64, i64, !fut.array<[?]i32>, !fut.array<[?][?]i32>, i32) -> (!fut.array<[?]i32>, i32, i32)} : () -> ()

// A map over a `replicate` reads the replicated value; the input goes
// (the other stays: a map keeps one array).
// CHECK-LABEL: sym_name = "replicate_input"
// CHECK-NOT: soac.replicate
// CHECK: = soac.map(
// CHECK: {kind = "mul"}
// CHECK-NOT: soac.replicate
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %v: i32):
  %r = "soac.replicate"(%n, %v) : (i64, i32) -> !fut.array<[%n]i32>
  %ys = "soac.map"(%n, %xs, %r) ({
  ^bb0(%x: i32, %w: i32):
    %s = "soac.binop"(%x, %w) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%s) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%ys) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "replicate_input", function_type = (i64, !fut.array<[?]i32>, i32) -> !fut.array<[?]i32>} : () -> ()

// A concatenation of a concatenation along the same dimension is one
// concatenation; a reshape of one that only renames the joined size is the
// concatenation at that size.
// CHECK-LABEL: sym_name = "concats"
// CHECK: = soac.concat(
// CHECK-SAME: {dim = 0 : i64} : (i64, [
// CHECK-NOT: soac.concat
// CHECK-NOT: soac.reshape
// CHECK: soac.return
"soac.func"() ({
^bb0(%a: i64, %b: i64, %c: i64, %k: i64, %xs: !fut.array<[%a]i32>, %ys: !fut.array<[%b]i32>, %zs: !fut.array<[%c]i32>):
  %bc = "soac.binop"(%b, %c) {kind = "add"} : (i64, i64) -> i64
  %inner = "soac.concat"(%bc, %ys, %zs) {dim = 0 : i64} : (i64, !fut.array<[%b]i32>, !fut.array<[%c]i32>) -> !fut.array<[%bc]i32>
  %w = "soac.binop"(%a, %bc) {kind = "add"} : (i64, i64) -> i64
  %outer = "soac.concat"(%w, %xs, %inner) {dim = 0 : i64} : (i64, !fut.array<[%a]i32>, !fut.array<[%bc]i32>) -> !fut.array<[%w]i32>
  %r = "soac.reshape"(%outer, %k) : (!fut.array<[%w]i32>, i64) -> !fut.array<[%k]i32>
  "soac.return"(%r) : (!fut.array<[%k]i32>) -> ()
}) {sym_name = "concats", function_type = (i64, i64, i64, i64, !fut.array<[?]i32>, !fut.array<[?]i32>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// An assertion of `true` goes; `(i + 1) - i` is 1 (integers).
// CHECK-LABEL: sym_name = "true_assertion"
// CHECK-NOT: soac.assert
// CHECK: soac.return
"soac.func"() ({
^bb0(%i: i64):
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %j = "soac.binop"(%i, %one) {kind = "add"} : (i64, i64) -> i64
  %k = "soac.binop"(%j, %i) {kind = "sub"} : (i64, i64) -> i64
  %ok = "soac.cmpop"(%k, %one) {kind = "eq"} : (i64, i64) -> i1
  "soac.assert"(%ok) {message = "the slice has one element"} : (i1) -> ()
  "soac.return"(%k) : (i64) -> ()
}) {sym_name = "true_assertion", function_type = (i64) -> i64} : () -> ()

// An index of a row taken by an index is one index: `m[i][j]` is `m[i, j]`.
// CHECK-LABEL: sym_name = "index_index"
// CHECK: = soac.index(
// CHECK-SAME: : ([
// CHECK-SAME: i64, i64) -> i32
// CHECK-NOT: soac.index
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %m: !fut.array<[%n][%n]i32>, %i: i64, %j: i64):
  %row = "soac.index"(%m, %i) : (!fut.array<[%n][%n]i32>, i64) -> !fut.array<[%n]i32>
  %x = "soac.index"(%row, %j) : (!fut.array<[%n]i32>, i64) -> i32
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "index_index", function_type = (i64, !fut.array<[?][?]i32>, i64, i64) -> i32} : () -> ()

// An elementwise map nest over a transposition of a map's result maps
// over the result itself; the transposition moves after it (Note [Maps
// across views]).
// CHECK-LABEL: sym_name = "map_across_view"
// CHECK: kind = "add"
// CHECK-NOT: soac.rearrange
// CHECK: kind = "mul"
// CHECK: soac.rearrange(
// CHECK-SAME: {perm = [1 : i64, 0 : i64]}
// CHECK-NEXT: soac.return(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]i32>):
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %yss = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]i32>):
    %ys = "soac.map"(%m, %xs) ({
    ^bb0(%x: i32):
      %y = "soac.binop"(%x, %two) {kind = "add"} : (i32, i32) -> i32
      "soac.yield"(%y) : (i32) -> ()
    }) : (i64, !fut.array<[%m]i32>) -> !fut.array<[%m]i32>
    "soac.yield"(%ys) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%n][%m]i32>) -> !fut.array<[%n][%m]i32>
  %t = "soac.rearrange"(%yss) {perm = [1, 0]} : (!fut.array<[%n][%m]i32>) -> !fut.array<[%m][%n]i32>
  %zss = "soac.map"(%m, %t) ({
  ^bb0(%ts: !fut.array<[%n]i32>):
    %zs = "soac.map"(%n, %ts) ({
    ^bb0(%x: i32):
      %z = "soac.binop"(%x, %two) {kind = "mul"} : (i32, i32) -> i32
      "soac.yield"(%z) : (i32) -> ()
    }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
    "soac.yield"(%zs) : (!fut.array<[%n]i32>) -> ()
  }) : (i64, !fut.array<[%m][%n]i32>) -> !fut.array<[%m][%n]i32>
  "soac.return"(%zss) : (!fut.array<[%m][%n]i32>) -> ()
}) {sym_name = "map_across_view", function_type = (i64, i64, !fut.array<[?][?]i32>) -> !fut.array<[?][?]i32>} : () -> ()

// Concatenations into a scatter (Note [Concatenations into a scatter]):
// both the indices and the values are concatenations of two arrays of
// size n, so the scatter runs over n rows writing two pairs per row.
// CHECK-LABEL: sym_name = "concat_scatter"
// CHECK-NOT: soac.concat
// CHECK: soac.scatter(
// CHECK-SAME: num_writes = [2 : i64]
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %k: i64, %is: !fut.array<[%n]i64>, %js: !fut.array<[%n]i64>, %vs: !fut.array<[%n]f32>, %ws: !fut.array<[%n]f32>, %dest: !fut.array<[%k]f32>):
  %m = "soac.binop"(%n, %n) {kind = "add"} : (i64, i64) -> i64
  %cis = "soac.concat"(%m, %is, %js) {dim = 0 : i64} : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i64>) -> !fut.array<[%m]i64>
  %cvs = "soac.concat"(%m, %vs, %ws) {dim = 0 : i64} : (i64, !fut.array<[%n]f32>, !fut.array<[%n]f32>) -> !fut.array<[%m]f32>
  %r = "soac.scatter"(%m, %cis, %cvs, %dest) ({
  ^bb0(%i: i64, %v: f32):
    "soac.yield"(%i, %v) : (i64, f32) -> ()
  }) : (i64, !fut.array<[%m]i64>, !fut.array<[%m]f32>, !fut.array<[%k]f32>) -> !fut.array<[%k]f32>
  "soac.return"(%r) : (!fut.array<[%k]f32>) -> ()
}) {sym_name = "concat_scatter", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i64>, !fut.array<[?]f32>, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()

// Not rewritten: the pieces have different sizes.
// CHECK-LABEL: sym_name = "concat_scatter_uneven"
// CHECK: soac.concat(
// CHECK: soac.scatter(
// CHECK-NOT: num_writes
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %p: i64, %k: i64, %is: !fut.array<[%n]i64>, %js: !fut.array<[%p]i64>, %vs: !fut.array<[%n]f32>, %ws: !fut.array<[%p]f32>, %dest: !fut.array<[%k]f32>):
  %m = "soac.binop"(%n, %p) {kind = "add"} : (i64, i64) -> i64
  %cis = "soac.concat"(%m, %is, %js) {dim = 0 : i64} : (i64, !fut.array<[%n]i64>, !fut.array<[%p]i64>) -> !fut.array<[%m]i64>
  %cvs = "soac.concat"(%m, %vs, %ws) {dim = 0 : i64} : (i64, !fut.array<[%n]f32>, !fut.array<[%p]f32>) -> !fut.array<[%m]f32>
  %r = "soac.scatter"(%m, %cis, %cvs, %dest) ({
  ^bb0(%i: i64, %v: f32):
    "soac.yield"(%i, %v) : (i64, f32) -> ()
  }) : (i64, !fut.array<[%m]i64>, !fut.array<[%m]f32>, !fut.array<[%k]f32>) -> !fut.array<[%k]f32>
  "soac.return"(%r) : (!fut.array<[%k]f32>) -> ()
}) {sym_name = "concat_scatter_uneven", function_type = (i64, i64, i64, !fut.array<[?]i64>, !fut.array<[?]i64>, !fut.array<[?]f32>, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
