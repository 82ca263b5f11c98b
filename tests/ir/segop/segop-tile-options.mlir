// RUN: futmlir opt %s --pass-pipeline=segop-tile{rows=4,cols=2,k=16}

// The options set the tile's sizes (Note [Block tiling]).
// CHECK: segop.segred({{.*}}) {level = "thread", tile = [4 : i64, 2 : i64, 16 : i64]}
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

