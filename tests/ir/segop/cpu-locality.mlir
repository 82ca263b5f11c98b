// RUN: futmlir opt %s --pass-pipeline=segop-cpu-locality --split-input-file
// RUN: futmlir opt %s --pass-pipeline=segop-cpu-locality --split-input-file | futmlir opt - --split-input-file

// A segop that reads a transposed view of an array from outside reads a
// row-major copy of it, made once before the segop (Note [Transposed
// views on the CPU]); the view itself stays for the host's other uses.
// CHECK-LABEL: sym_name = "matmul"
// CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, [[Q:%[0-9]+]]: i64, [[N:%[0-9]+]]: i64, [[A:%[0-9]+]]: {{[^,]+}}, [[B:%[0-9]+]]: [
// CHECK-NEXT: [[BT:%[0-9]+]] = soac.rearrange([[B]]) {perm = [1 : i64, 0 : i64]}
// CHECK: [[COPY:%[0-9]+]] = segop.manifest([[BT]]) {perm = [0 : i64, 1 : i64]} : ([
// CHECK-SAME: [[N]]][[[Q]]]f32) -> [[[N]]][[[Q]]]f32
// CHECK-NEXT: [[C:%[0-9]+]] = segop.segred(
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT: soac.index([[A]], [[I]], [[K]])
// CHECK-NEXT: soac.index([[COPY]], [[J]], [[K]])
// CHECK: soac.return([[C]], [[BT]])
"soac.func"() ({
^bb0(%m: i64, %q: i64, %n: i64, %a: !fut.array<[%m][%q]f32>, %b: !fut.array<[%q][%n]f32>):
  %bt = "soac.rearrange"(%b) {perm = [1, 0]} : (!fut.array<[%q][%n]f32>) -> !fut.array<[%n][%q]f32>
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %c = "segop.segred"(%m, %n, %q, %z) {level = "thread"} ({
  ^bb0(%i: i64, %j: i64, %k: i64):
    %x = "soac.index"(%a, %i, %k) : (!fut.array<[%m][%q]f32>, i64, i64) -> f32
    %y = "soac.index"(%bt, %j, %k) : (!fut.array<[%n][%q]f32>, i64, i64) -> f32
    %p = "soac.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%p) : (f32) -> ()
  }, {
  ^bb0(%u: f32, %v: f32):
    %s = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, i64, f32) -> !fut.array<[%m][%n]f32>
  "soac.return"(%c, %bt) : (!fut.array<[%m][%n]f32>, !fut.array<[%n][%q]f32>) -> ()
}) {sym_name = "matmul", function_type = (i64, i64, i64, !fut.array<[?][?]f32>, !fut.array<[?][?]f32>) -> (!fut.array<[?][?]f32>, !fut.array<[?][?]f32>), size_params = 3 : i64} : () -> ()

// -----

// Not copied: a view whose rows stay contiguous (the last dimension is
// the source's last), and a transpose made inside the segop's body.
// CHECK-LABEL: sym_name = "kept"
// CHECK-NOT: segop.manifest
"soac.func"() ({
^bb0(%n: i64, %a: !fut.array<[%n][%n][%n]f32>):
  %v = "soac.rearrange"(%a) {perm = [1, 0, 2]} : (!fut.array<[%n][%n][%n]f32>) -> !fut.array<[%n][%n][%n]f32>
  %r = "segop.segmap"(%n, %n, %n) {level = "thread"} ({
  ^bb0(%i: i64, %j: i64, %k: i64):
    %x = "soac.index"(%v, %i, %j, %k) : (!fut.array<[%n][%n][%n]f32>, i64, i64, i64) -> f32
    %row = "soac.index"(%a, %i) : (!fut.array<[%n][%n][%n]f32>, i64) -> !fut.array<[%n][%n]f32>
    %t = "soac.rearrange"(%row) {perm = [1, 0]} : (!fut.array<[%n][%n]f32>) -> !fut.array<[%n][%n]f32>
    %y = "soac.index"(%t, %j, %k) : (!fut.array<[%n][%n]f32>, i64, i64) -> f32
    %s = "soac.binop"(%x, %y) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, i64) -> !fut.array<[%n][%n][%n]f32>
  "soac.return"(%r) : (!fut.array<[%n][%n][%n]f32>) -> ()
}) {sym_name = "kept", function_type = (i64, !fut.array<[?][?][?]f32>) -> !fut.array<[?][?][?]f32>, size_params = 1 : i64} : () -> ()
