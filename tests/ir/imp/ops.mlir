// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "k0"
// CHECK: imp.thread_id(
// CHECK: {width = 4 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32, f32)
// CHECK: imp.barrier(
// CHECK: {volatile} : (!mem.block<device>, i64) -> f32
// CHECK: imp.fence(
// CHECK: {volatile} : (!mem.block<device>, i64, f32) -> ()
// CHECK: mem.alloc({{.*}}) {space = "device", thread}
// CHECK-NEXT: mem.free(
// CHECK-LABEL: "main"
// CHECK: imp.launch(
"imp.kernel"() ({
^bb0(%m: !mem.block<device>, %n: i64):
  %t = "imp.thread_id"() {dim = 0 : i64} : () -> i64
  %b = "imp.block_id"() {dim = 0 : i64} : () -> i64
  %bd = "imp.block_dim"() {dim = 0 : i64} : () -> i64
  %gd = "imp.grid_dim"() {dim = 0 : i64} : () -> i64
  %off = "soac.binop"(%b, %bd) {kind = "mul"} : (i64, i64) -> i64
  %g = "soac.binop"(%off, %t) {kind = "add"} : (i64, i64) -> i64
  %in = "soac.cmpop"(%g, %n) {kind = "lt"} : (i64, i64) -> i1
  %four = "soac.constant"() {value = 4 : i64} : () -> i64
  %g4 = "soac.binop"(%g, %four) {kind = "mul"} : (i64, i64) -> i64
  %v:4 = "imp.load"(%m, %g4) {width = 4 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32, f32)
  "imp.store"(%m, %g4, %v#3, %v#2, %v#1, %v#0) {width = 4 : i64} : (!mem.block<device>, i64, f32, f32, f32, f32) -> ()
  %bytes = "soac.constant"() {value = 1024 : i64} : () -> i64
  %s = "imp.shared_alloc"(%bytes) : (i64) -> !mem.block<shared>
  "imp.if"(%in) ({
    %x = "imp.load"(%m, %g) : (!mem.block<device>, i64) -> f32
    "imp.store"(%s, %t, %x) : (!mem.block<shared>, i64, f32) -> ()
    "imp.yield"() : () -> ()
  }, {
    "imp.yield"() : () -> ()
  }) : (i1) -> ()
  "imp.barrier"() {fence = "local"} : () -> ()
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %old = "imp.atomic"(%s, %zero, %one) {kind = "add"} : (!mem.block<shared>, i64, i32) -> i32
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %prev = "imp.atomic"(%s, %zero, %one, %two) {kind = "cas"} : (!mem.block<shared>, i64, i32, i32) -> i32
  %flag = "imp.load"(%m, %zero) {volatile} : (!mem.block<device>, i64) -> f32
  "imp.fence"() : () -> ()
  "imp.store"(%m, %zero, %flag) {volatile} : (!mem.block<device>, i64, f32) -> ()
  %own = "mem.alloc"(%bytes) {space = "device", thread} : (i64) -> !mem.block<device>
  "mem.free"(%own) : (!mem.block<device>) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "k0", function_type = (!mem.block<device>, i64) -> (), block_size = [256]} : () -> ()
"imp.func"() ({
^bb0(%n: i64, %h: !mem.block<host>):
  %c4 = "soac.constant"() {value = 4 : i64} : () -> i64
  %bytes = "soac.binop"(%n, %c4) {kind = "mul"} : (i64, i64) -> i64
  %d = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %bs = "soac.constant"() {value = 256 : i64} : () -> i64
  "imp.launch"(%n, %one, %one, %bs, %one, %one, %d, %n) {callee = @k0} : (i64, i64, i64, i64, i64, i64, !mem.block<device>, i64) -> ()
  "imp.for"(%zero, %n, %one) ({
  ^bb0(%i: i64):
    %x = "imp.load"(%h, %i) : (!mem.block<host>, i64) -> f32
    "imp.store"(%h, %i, %x) : (!mem.block<host>, i64, f32) -> ()
    "imp.yield"() : () -> ()
  }) : (i64, i64, i64) -> ()
  "imp.while"() ({
    %c = "imp.load"(%h, %zero) : (!mem.block<host>, i64) -> i1
    "imp.yield"(%c) : (i1) -> ()
  }, {
    "imp.yield"() : () -> ()
  }) : () -> ()
  "mem.free"(%d) : (!mem.block<device>) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "main", function_type = (i64, !mem.block<host>) -> ()} : () -> ()

// -----

// A function that imp.call calls, and its device version (kernel code, of
// its own symbol: Note [Functions at the imp level]), called from a
// kernel.
// CHECK-LABEL: sym_name = "k"
// CHECK: {callee = @twice$device, device} : (i32) -> i32
// CHECK-LABEL: sym_name = "main"
// CHECK: {callee = @twice} : (i32) -> i32
"imp.func"() ({
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  "imp.return"(%y) : (i32) -> ()
}) {sym_name = "twice", function_type = (i32) -> i32} : () -> ()
"imp.func"() ({
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  "imp.return"(%y) : (i32) -> ()
}) {sym_name = "twice$device", function_type = (i32) -> i32, device} : () -> ()
"imp.kernel"() ({
^bb0(%x: i32):
  %y = "imp.call"(%x) {callee = @twice$device, device} : (i32) -> i32
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = (i32) -> ()} : () -> ()
"imp.func"() ({
^bb0(%x: i32):
  %y = "imp.call"(%x) {callee = @twice} : (i32) -> i32
  "imp.return"(%y) : (i32) -> ()
}) {sym_name = "main", function_type = (i32) -> i32, entry} : () -> ()
