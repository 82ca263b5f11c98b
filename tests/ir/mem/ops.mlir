// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "memory"
// CHECK: mem.alloc(
// CHECK: mem.view(
// CHECK: mem.loop(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %bytes: i64):
  %b = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
  %h = "mem.alloc"(%bytes) {space = "host"} : (i64) -> !mem.block<host>
  %xs = "mem.view"(%b, %n) {lmad = #mem.lmad<offset: 0, dims: [($0, 1)]>} : (!mem.block<device>, i64) -> !fut.array<[%n]f32>
  %ys = "mem.view"(%h, %n) {lmad = #mem.lmad<offset: 0, dims: [($0, 1)]>} : (!mem.block<host>, i64) -> !fut.array<[%n]f32>
  %t = "mem.view"(%b, %n, %m) {lmad = #mem.lmad<offset: 0, dims: [($1, 1), ($0, $1)]>} : (!mem.block<device>, i64, i64) -> !fut.array<[%m][%n]f32>
  "mem.copy"(%ys, %xs) : (!fut.array<[%n]f32>, !fut.array<[%n]f32>) -> ()
  %e = "mem.expand"(%bytes) {layout = "interleaved"} : (i64) -> !mem.block<device>
  %ks = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %row = "soac.iota"(%m) : (i64) -> !fut.array<[%m]i64>
    "mem.bind"(%e, %row) : (!mem.block<device>, !fut.array<[%m]i64>) -> ()
    %s = "soac.index"(%row, %i) : (!fut.array<[%m]i64>, i64) -> i64
    "segop.yield"(%s) : (i64) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]i64>
  %r:2 = "mem.loop"(%m, %b, %xs) ({
  ^bb0(%i: i64, %mb: !mem.block<device>, %a: !fut.array<[%n]f32>):
    %nb = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
    %na = "mem.view"(%nb, %n) {lmad = #mem.lmad<offset: 0, dims: [($0, 1)]>} : (!mem.block<device>, i64) -> !fut.array<[%n]f32>
    "mem.copy"(%na, %a) : (!fut.array<[%n]f32>, !fut.array<[%n]f32>) -> ()
    "mem.yield"(%nb, %na) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  }) {double_buffer = [0]} : (i64, !mem.block<device>, !fut.array<[%n]f32>) -> (!mem.block<device>, !fut.array<[%n]f32>)
  "mem.free"(%h) : (!mem.block<host>) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "memory", function_type = (i64, i64, i64) -> ()} : () -> ()
