// RUN: futmlir opt %s --pass-pipeline=segop-coalesce --split-input-file
// RUN: futmlir opt %s --pass-pipeline=segop-coalesce --split-input-file | futmlir opt - --split-input-file

// Column sums: the body reads `transpose xss` at (j, q), that is
// `xss[q][j]`, down a column (Note [Column reductions]).
// CHECK-LABEL: sym_name = "colsums"
// CHECK: segop.segred({{.*}}) {level = "thread", commutative, coalesce = "columns"}
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>):
  %t = "soac.rearrange"(%xss) {perm = [1, 0]} : (!fut.array<[%n][%m]f32>) -> !fut.array<[%m][%n]f32>
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %c = "segop.segred"(%m, %n, %z) {level = "thread", commutative} ({
  ^bb0(%j: i64, %q: i64):
    %x = "soac.index"(%t, %j, %q) : (!fut.array<[%m][%n]f32>, i64, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%u: f32, %v: f32):
    %s = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, f32) -> !fut.array<[%m]f32>
  "soac.return"(%c) : (!fut.array<[%m]f32>) -> ()
}) {sym_name = "colsums", function_type = (i64, i64, !fut.array<[?][?]f32>) -> !fut.array<[?]f32>, size_params = 2 : i64} : () -> ()

// -----

// Not marked: row sums (the read goes along a row), and a reduction
// whose operator is not known to commute (the chunks would reorder it).
// CHECK-LABEL: sym_name = "kept"
// CHECK-NOT: coalesce
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>):
  %t = "soac.rearrange"(%xss) {perm = [1, 0]} : (!fut.array<[%n][%m]f32>) -> !fut.array<[%m][%n]f32>
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %r = "segop.segred"(%n, %m, %z) {level = "thread", commutative} ({
  ^bb0(%i: i64, %q: i64):
    %x = "soac.index"(%xss, %i, %q) : (!fut.array<[%n][%m]f32>, i64, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%u: f32, %v: f32):
    %s = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, f32) -> !fut.array<[%n]f32>
  %c = "segop.segred"(%m, %n, %z) {level = "thread"} ({
  ^bb0(%j: i64, %q: i64):
    %x = "soac.index"(%t, %j, %q) : (!fut.array<[%m][%n]f32>, i64, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%u: f32, %v: f32):
    %s = "soac.binop"(%u, %v) {kind = "sub"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, f32) -> !fut.array<[%m]f32>
  "soac.return"(%r, %c) : (!fut.array<[%n]f32>, !fut.array<[%m]f32>) -> ()
}) {sym_name = "kept", function_type = (i64, i64, !fut.array<[?][?]f32>) -> (!fut.array<[?]f32>, !fut.array<[?]f32>), size_params = 2 : i64} : () -> ()
