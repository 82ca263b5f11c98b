// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "kernels"
// CHECK: segop.segmap(
// CHECK: segop.segred(
// CHECK: segop.segscan(
// CHECK: segop.seghist(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %w: i64, %xs: !fut.array<[%n][%m]f32>, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%w]i32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %izero = "soac.constant"() {value = 0 : i32} : () -> i32
  %ys = "segop.segmap"(%n, %m) ({
  ^bb0(%i: i64, %j: i64):
    %x = "soac.index"(%xs, %i, %j) : (!fut.array<[%n][%m]f32>, i64, i64) -> f32
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64, i64) -> !fut.array<[%n][%m]f32>
  %rows:2 = "segop.segred"(%n, %m, %zero) ({
  ^bb0(%i: i64, %j: i64):
    %x = "soac.index"(%ys, %i, %j) : (!fut.array<[%n][%m]f32>, i64, i64) -> f32
    "segop.yield"(%x, %x) : (f32, f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%c) : (f32) -> ()
  }) {level = "group", commutative} : (i64, i64, f32) -> (!fut.array<[%n]f32>, !fut.array<[%n][%m]f32>)
  %ps = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%rows#0, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "max"} : (f32, f32) -> f32
    "segop.yield"(%c) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> !fut.array<[%n]f32>
  %h = "segop.seghist"(%n, %w, %dest, %izero) ({
  ^bb0(%i: i64):
    %b = "soac.index"(%is, %i) : (!fut.array<[%n]i64>, i64) -> i64
    "segop.yield"(%b, %one) : (i64, i32) -> ()
  }, {
  ^bb0(%a: i32, %c: i32):
    %s = "soac.binop"(%a, %c) {kind = "add"} : (i32, i32) -> i32
    "segop.yield"(%s) : (i32) -> ()
  }) {level = "thread"} : (i64, i64, !fut.array<[%w]i32>, i32) -> !fut.array<[%w]i32>
  "soac.return"(%ps, %h) : (!fut.array<[%n]f32>, !fut.array<[%w]i32>) -> ()
}) {sym_name = "kernels", function_type = (i64, i64, i64, !fut.array<[?][?]f32>, !fut.array<[?]i64>, !fut.array<[?]i32>) -> (!fut.array<[?]f32>, !fut.array<[?]i32>)} : () -> ()

// -----

// CHECK-LABEL: "versions"
// CHECK: segop.manifest(
// CHECK: segop.if_threshold(
"soac.func"() ({
^bb0(%n: i64, %tile: i64, %xs: !fut.array<[%n]f32>, %m: !fut.array<[%n][%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %t = "segop.manifest"(%m) {perm = [1, 0]} : (!fut.array<[%n][%n]f32>) -> !fut.array<[%n][%n]f32>
  %r = "segop.if_threshold"(%n) ({
    %s = "segop.segred"(%n, %zero) ({
    ^bb0(%i: i64):
      %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
      "segop.yield"(%x) : (f32) -> ()
    }, {
    ^bb0(%a: f32, %b: f32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
      "segop.yield"(%c) : (f32) -> ()
    }) {level = "thread"} : (i64, f32) -> f32
    "segop.yield"(%s) : (f32) -> ()
  }, {
    "segop.yield"(%zero) : (f32) -> ()
  }) {threshold = "versions.suff_par_0"} : (i64) -> f32
  "soac.return"(%r) : (f32) -> ()
}) {sym_name = "versions", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?][?]f32>) -> f32} : () -> ()

// -----

// A segmap writing in place (a scatter): indices, then rows.
// CHECK-LABEL: "writes"
// CHECK: writes = 1 : i64
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %vs: !fut.array<[%n]f32>, %d: !fut.array<[%m]f32>):
  %r = "segop.segmap"(%n, %d) ({
  ^bb0(%i: i64):
    %j = "soac.index"(%is, %i) : (!fut.array<[%n]i64>, i64) -> i64
    %v = "soac.index"(%vs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%j, %v) : (i64, f32) -> ()
  }) {level = "thread", writes = 1 : i64} : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
  "soac.return"(%r) : (!fut.array<[%m]f32>) -> ()
}) {sym_name = "writes", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
