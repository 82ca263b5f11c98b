// RUN: futmlir opt %s --split-input-file --pass-pipeline=ir-cse

// Equal pure ops merge; the later one's uses move to the first.
// CHECK-LABEL: soac.func() {sym_name = "merge"
// CHECK-NEXT: ^bb0([[X:%[0-9]+]]: i32, [[Y:%[0-9]+]]: i32):
// CHECK-NEXT: [[ADD:%[0-9]+]] = soac.binop([[X]], [[Y]]) {kind = "add"}
// CHECK-NOT: soac.binop([[X]], [[Y]]) {kind = "add"}
// CHECK: {{%[0-9]+}} = soac.binop([[X]], [[Y]]) {kind = "sub"}
// CHECK: {{%[0-9]+}} = soac.binop([[ADD]], [[ADD]]) {kind = "mul"}
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
// CHECK-NEXT: ^bb0([[C:%[0-9]+]]: bool, [[X:%[0-9]+]]: f32):
// CHECK-NEXT: [[MUL:%[0-9]+]] = soac.binop([[X]], [[X]]) {kind = "mul"}
// CHECK-NEXT: {{%[0-9]+}} = soac.if([[C]]) ({
// CHECK-NEXT: soac.yield([[MUL]])
// CHECK-NEXT: }, {
// CHECK-NEXT: soac.yield([[MUL]])
// CHECK: {{%[0-9]+}} = soac.if([[C]]) ({
// CHECK-NEXT: {{%[0-9]+}} = soac.binop([[X]], [[X]]) {kind = "add"}
// CHECK: }, {
// CHECK-NEXT: {{%[0-9]+}} = soac.binop([[X]], [[X]]) {kind = "add"}
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
// CHECK-NEXT: ^bb0([[A:%[0-9]+]]: i32, [[B:%[0-9]+]]: i32, [[X:%[0-9]+]]: f32, [[Y:%[0-9]+]]: f32):
// CHECK-NEXT: [[ADD:%[0-9]+]] = soac.binop([[A]], [[B]]) {kind = "add"}
// CHECK-NOT: soac.binop([[B]], [[A]]) {kind = "add"}
// CHECK: [[SUB_AB:%[0-9]+]] = soac.binop([[A]], [[B]]) {kind = "sub"}
// CHECK-NEXT: [[SUB_BA:%[0-9]+]] = soac.binop([[B]], [[A]]) {kind = "sub"}
// CHECK-NEXT: [[EQ:%[0-9]+]] = soac.cmpop([[A]], [[B]]) {kind = "eq"}
// CHECK-NOT: soac.cmpop([[B]], [[A]]) {kind = "eq"}
// CHECK: [[MIN_XY:%[0-9]+]] = soac.binop([[X]], [[Y]]) {kind = "min"}
// CHECK-NEXT: [[MIN_YX:%[0-9]+]] = soac.binop([[Y]], [[X]]) {kind = "min"}
// CHECK-NEXT: soac.return([[ADD]], [[ADD]], [[SUB_AB]], [[SUB_BA]], [[EQ]], [[EQ]], [[MIN_XY]], [[MIN_YX]])
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
