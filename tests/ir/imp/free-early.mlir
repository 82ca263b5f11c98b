// RUN: futmlir opt %s --pass-pipeline=imp-free-early --split-input-file

// A block is freed right after its last use (here a loop that reads
// it), before the next allocation, which the pool can then serve with it.
// CHECK-LABEL: "chain"
// CHECK: mem.alloc(
// CHECK-NEXT: imp.store(
// CHECK-NEXT: imp.for(
// CHECK: }) : (i64, i64, i64, f32) -> f32
// CHECK-NEXT: mem.free(%4)
// CHECK-NEXT: mem.alloc(
// CHECK-NEXT: imp.store(
// CHECK-NEXT: mem.free(%9)
// CHECK-NEXT: imp.return(
"imp.func"() ({
^bb0(%n: i64, %x: f32):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %a = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
  "imp.store"(%a, %zero, %x) : (!mem.block<host>, i64, f32) -> ()
  %s = "imp.for"(%zero, %one, %one, %x) ({
  ^bb0(%i: i64, %acc: f32):
    %y = "imp.load"(%a, %i) : (!mem.block<host>, i64) -> f32
    "imp.yield"(%y) : (f32) -> ()
  }) : (i64, i64, i64, f32) -> f32
  %b = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
  "imp.store"(%b, %zero, %s) : (!mem.block<host>, i64, f32) -> ()
  "mem.free"(%a) : (!mem.block<host>) -> ()
  "mem.free"(%b) : (!mem.block<host>) -> ()
  "imp.return"(%s) : (f32) -> ()
}) {sym_name = "chain", function_type = (i64, f32) -> f32} : () -> ()

// -----

// A block that a loop carries may live on under the loop's result: its
// free stays at the end.
// CHECK-LABEL: "carried"
// CHECK: mem.alloc(
// CHECK-NEXT: imp.for(
// CHECK: imp.store(
// CHECK-NEXT: mem.free(
// CHECK-NEXT: imp.return(
"imp.func"() ({
^bb0(%n: i64, %x: f32):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %a = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
  %c = "imp.for"(%zero, %one, %one, %a) ({
  ^bb0(%i: i64, %m: !mem.block<host>):
    "imp.yield"(%m) : (!mem.block<host>) -> ()
  }) : (i64, i64, i64, !mem.block<host>) -> !mem.block<host>
  "imp.store"(%c, %zero, %x) : (!mem.block<host>, i64, f32) -> ()
  "mem.free"(%a) : (!mem.block<host>) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "carried", function_type = (i64, f32) -> ()} : () -> ()
