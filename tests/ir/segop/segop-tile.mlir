// RUN: futmlir opt %s --pass-pipeline=segop-tile --split-input-file
// RUN: futmlir opt %s --pass-pipeline=segop-tile --split-input-file | futmlir opt - --split-input-file

// A matmul-like segred: its body reads `a` at (i, q) and `bt` at (j, q)
// (Note [Block tiling]). segop-tile-options.mlir sets the sizes.
// CHECK-LABEL: sym_name = "matmul"
// CHECK: segop.segred({{.*}}) {level = "thread", tile = [4 : i64, 8 : i64, 8 : i64]}
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
  "soac.return"(%c) : (!fut.array<[%m][%n]f32>) -> ()
}) {sym_name = "matmul", function_type = (i64, i64, i64, !fut.array<[?][?]f32>, !fut.array<[?][?]f32>) -> !fut.array<[?][?]f32>, size_params = 3 : i64} : () -> ()

// -----

// A segmap whose body's reduction takes a row of `a` at (i) and of `bt`
// at (j), and whose result goes on through more code (a bias): tiled.
// CHECK-LABEL: sym_name = "linear"
// CHECK: segop.segmap({{.*}}) {level = "thread", tile = [4 : i64, 8 : i64, 8 : i64]}
"soac.func"() ({
^bb0(%m: i64, %q: i64, %n: i64, %a: !fut.array<[%m][%q]f32>, %bt: !fut.array<[%n][%q]f32>, %w: !fut.array<[%n]f32>):
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %c = "segop.segmap"(%m, %n) {level = "thread"} ({
  ^bb0(%i: i64, %j: i64):
    %r = "soac.index"(%a, %i) : (!fut.array<[%m][%q]f32>, i64) -> !fut.array<[%q]f32>
    %s = "soac.index"(%bt, %j) : (!fut.array<[%n][%q]f32>, i64) -> !fut.array<[%q]f32>
    %d = "soac.redomap"(%q, %z, %r, %s) ({
    ^bb0(%u: f32, %v: f32):
      %t = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%t) : (f32) -> ()
    }, {
    ^bb0(%x: f32, %y: f32):
      %p = "soac.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%p) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%q]f32>, !fut.array<[%q]f32>) -> f32
    %b = "soac.index"(%w, %j) : (!fut.array<[%n]f32>, i64) -> f32
    %e = "soac.binop"(%d, %b) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%e) : (f32) -> ()
  }) : (i64, i64) -> !fut.array<[%m][%n]f32>
  "soac.return"(%c) : (!fut.array<[%m][%n]f32>) -> ()
}) {sym_name = "linear", function_type = (i64, i64, i64, !fut.array<[?][?]f32>, !fut.array<[?][?]f32>, !fut.array<[?]f32>) -> !fut.array<[?][?]f32>, size_params = 3 : i64} : () -> ()

// -----

// Not tiled: a segred whose body reads only the rows' side (nothing is
// shared along the columns), and a segmap whose reduction's lambda uses
// a value its body computes (the lambda cannot run apart from the body).
// CHECK-LABEL: sym_name = "kept"
// CHECK-NOT: tile =
"soac.func"() ({
^bb0(%m: i64, %q: i64, %n: i64, %a: !fut.array<[%m][%q]f32>, %bt: !fut.array<[%n][%q]f32>):
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %c = "segop.segred"(%m, %n, %q, %z) {level = "thread"} ({
  ^bb0(%i: i64, %j: i64, %k: i64):
    %x = "soac.index"(%a, %i, %k) : (!fut.array<[%m][%q]f32>, i64, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%u: f32, %v: f32):
    %s = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }) : (i64, i64, i64, f32) -> !fut.array<[%m][%n]f32>
  %e = "segop.segmap"(%m, %n) {level = "thread"} ({
  ^bb0(%i: i64, %j: i64):
    %r = "soac.index"(%a, %i) : (!fut.array<[%m][%q]f32>, i64) -> !fut.array<[%q]f32>
    %s = "soac.index"(%bt, %j) : (!fut.array<[%n][%q]f32>, i64) -> !fut.array<[%q]f32>
    %h = "soac.index"(%r, %j) : (!fut.array<[%q]f32>, i64) -> f32
    %d = "soac.redomap"(%q, %z, %r, %s) ({
    ^bb0(%u: f32, %v: f32):
      %t = "soac.binop"(%u, %v) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%t) : (f32) -> ()
    }, {
    ^bb0(%x: f32, %y: f32):
      %p = "soac.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
      %p2 = "soac.binop"(%p, %h) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%p2) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%q]f32>, !fut.array<[%q]f32>) -> f32
    "segop.yield"(%d) : (f32) -> ()
  }) : (i64, i64) -> !fut.array<[%m][%n]f32>
  "soac.return"(%c, %e) : (!fut.array<[%m][%n]f32>, !fut.array<[%m][%n]f32>) -> ()
}) {sym_name = "kept", function_type = (i64, i64, i64, !fut.array<[?][?]f32>, !fut.array<[?][?]f32>) -> (!fut.array<[?][?]f32>, !fut.array<[?][?]f32>), size_params = 3 : i64} : () -> ()
