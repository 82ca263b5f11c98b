// RUN: futmlir opt %s --split-input-file --pass-pipeline=ir-cse

// Equal pure ops merge; the later one's uses move to the first.
// CHECK-LABEL: soac.func() {sym_name = "merge"
// CHECK: %2 = soac.binop(%0, %1) {kind = "add"}
// CHECK-NOT: soac.binop(%0, %1) {kind = "add"}
// CHECK: %3 = soac.binop(%0, %1) {kind = "sub"}
// CHECK: %4 = soac.binop(%2, %2) {kind = "mul"}
"soac.func"() ({
^bb0(%x: i32, %y: i32):
  %a = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
  %b = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
  %c = "soac.binop"(%x, %y) {kind = "sub"} : (i32, i32) -> i32
  %d = "soac.binop"(%a, %b) {kind = "mul"} : (i32, i32) -> i32
  %e = "soac.binop"(%d, %c) {kind = "mul"} : (i32, i32) -> i32
  "soac.return"(%e) : (i32) -> ()
}) {sym_name = "merge", function_type = (i32, i32) -> i32} : () -> ()

// -----

// An op inside a region is replaced by an equal op above it, but ops in
// sibling regions do not see each other.
// CHECK-LABEL: soac.func() {sym_name = "scopes"
// CHECK: %2 = soac.binop(%1, %1) {kind = "mul"}
// CHECK-NEXT: %3 = soac.if(%0) ({
// CHECK-NEXT: soac.yield(%2)
// CHECK: %5 = soac.binop(%1, %1) {kind = "add"}
// CHECK: %6 = soac.binop(%1, %1) {kind = "add"}
"soac.func"() ({
^bb0(%c: i1, %x: f32):
  %sq = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
  %r = "soac.if"(%c) ({
    %sq2 = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%sq2) : (f32) -> ()
  }, {
    "soac.yield"(%sq) : (f32) -> ()
  }) : (i1) -> f32
  %s = "soac.if"(%c) ({
    %t1 = "soac.binop"(%x, %x) {kind = "add"} : (f32, f32) -> f32
    "soac.assert"(%c) {message = "effects keep the branch"} : (i1) -> ()
    "soac.yield"(%r) : (f32) -> ()
  }, {
    %t2 = "soac.binop"(%x, %x) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%r) : (f32) -> ()
  }) : (i1) -> f32
  "soac.return"(%s) : (f32) -> ()
}) {sym_name = "scopes", function_type = (i1, f32) -> f32} : () -> ()

// -----

// The operands of a commutative operator count in either order (`x + y`
// and `y + x` merge); those of `sub` and of float `min` do not.
// CHECK-LABEL: soac.func() {sym_name = "commutative"
// CHECK: %4 = soac.binop(%0, %1) {kind = "add"}
// CHECK-NOT: soac.binop(%1, %0) {kind = "add"}
// CHECK: soac.binop(%1, %0) {kind = "sub"}
// CHECK: %7 = soac.cmpop(%0, %1) {kind = "eq"}
// CHECK-NOT: soac.cmpop(%1, %0) {kind = "eq"}
// CHECK: soac.binop(%2, %3) {kind = "min"}
// CHECK: soac.binop(%3, %2) {kind = "min"}
// CHECK: soac.return(%4, %4, %5, %6, %7, %7, %8, %9)
"soac.func"() ({
^bb0(%x: i32, %y: i32, %f: f32, %g: f32):
  %a = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
  %b = "soac.binop"(%y, %x) {kind = "add"} : (i32, i32) -> i32
  %c = "soac.binop"(%x, %y) {kind = "sub"} : (i32, i32) -> i32
  %d = "soac.binop"(%y, %x) {kind = "sub"} : (i32, i32) -> i32
  %e = "soac.cmpop"(%x, %y) {kind = "eq"} : (i32, i32) -> i1
  %e2 = "soac.cmpop"(%y, %x) {kind = "eq"} : (i32, i32) -> i1
  %m = "soac.binop"(%f, %g) {kind = "min"} : (f32, f32) -> f32
  %n = "soac.binop"(%g, %f) {kind = "min"} : (f32, f32) -> f32
  "soac.return"(%a, %b, %c, %d, %e, %e2, %m, %n) : (i32, i32, i32, i32, i1, i1, f32, f32) -> ()
}) {sym_name = "commutative", function_type = (i32, i32, f32, f32) -> (i32, i32, i32, i32, i1, i1, f32, f32)} : () -> ()
