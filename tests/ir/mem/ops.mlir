// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "memory"
// CHECK: mem.alloc(
// CHECK: mem.bind(
// CHECK: mem.expand(
// CHECK: mem.bind(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %bytes: i64):
  %b = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
  %h = "mem.alloc"(%bytes) {space = "host"} : (i64) -> !mem.block<host>
  %xs = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  "mem.bind"(%b, %xs) : (!mem.block<device>, !fut.array<[%n]i64>) -> ()
  %e = "mem.expand"(%bytes) {layout = "interleaved"} : (i64) -> !mem.block<device>
  %ks = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %row = "soac.iota"(%m) : (i64) -> !fut.array<[%m]i64>
    "mem.bind"(%e, %row) : (!mem.block<device>, !fut.array<[%m]i64>) -> ()
    %s = "soac.index"(%row, %i) : (!fut.array<[%m]i64>, i64) -> i64
    "segop.yield"(%s) : (i64) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]i64>
  "mem.free"(%h) : (!mem.block<host>) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "memory", function_type = (i64, i64, i64) -> ()} : () -> ()
