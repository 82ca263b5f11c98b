// RUN: futmlir opt %s --pass-pipeline=imp-carried-memory --split-input-file

// A loop body that allocates its next array: the parameter's block is
// freed after its last use where the flag (false at first) says so; the
// loop's result after its last use.
// CHECK-LABEL: "fresh"
// CHECK: %4 = soac.constant() {value = false}
// CHECK-NEXT: imp.for(%2, %0, %3, %1, %4)
// CHECK-NEXT: ^bb0(%6: i64, %7: !mem.block<host>, %8: bool):
// CHECK-NEXT: imp.load(%7
// CHECK-NEXT: imp.if(%8)
// CHECK-NEXT: mem.free(%7)
// CHECK: mem.alloc(
// CHECK: soac.constant() {value = true}
// CHECK-NEXT: imp.yield(%10, %11)
// CHECK: imp.load(%5#0
// CHECK-NEXT: imp.if(%5#1)
// CHECK-NEXT: mem.free(%5#0)
"imp.func"() ({
^bb0(%n: i64, %x: !mem.block<host>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %r = "imp.for"(%zero, %n, %one, %x) ({
  ^bb0(%i: i64, %m: !mem.block<host>):
    %y = "imp.load"(%m, %zero) : (!mem.block<host>, i64) -> f32
    %a = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
    "imp.store"(%a, %zero, %y) : (!mem.block<host>, i64, f32) -> ()
    "imp.yield"(%a) : (!mem.block<host>) -> ()
  }) : (i64, i64, i64, !mem.block<host>) -> !mem.block<host>
  %z = "imp.load"(%r, %zero) : (!mem.block<host>, i64) -> f32
  "imp.return"(%z) : (f32) -> ()
}) {sym_name = "fresh", function_type = (i64, !mem.block<host>) -> f32} : () -> ()

// -----

// A swap: each flag goes with its block; nothing is freed.
// CHECK-LABEL: "swap"
// CHECK: imp.yield(%10, %9, %12, %11)
// CHECK-NOT: mem.free
"imp.func"() ({
^bb0(%n: i64, %x: !mem.block<host>, %y: !mem.block<host>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %r:2 = "imp.for"(%zero, %n, %one, %x, %y) ({
  ^bb0(%i: i64, %a: !mem.block<host>, %b: !mem.block<host>):
    "imp.yield"(%b, %a) : (!mem.block<host>, !mem.block<host>) -> ()
  }) : (i64, i64, i64, !mem.block<host>, !mem.block<host>) -> (!mem.block<host>, !mem.block<host>)
  "imp.return"(%r#0, %r#1) : (!mem.block<host>, !mem.block<host>) -> ()
}) {sym_name = "swap", function_type = (i64, !mem.block<host>, !mem.block<host>) -> (!mem.block<host>, !mem.block<host>)} : () -> ()

// -----

// A branch that keeps the parameter's array or makes a new one: the
// branch that yields the parameter takes its flag, and says it took
// it; the body frees the parameter where no branch did.
// CHECK-LABEL: "branch"
// CHECK: %10:3 = imp.if(%1)
// CHECK: mem.alloc(
// CHECK-NEXT: soac.constant() {value = true}
// CHECK-NEXT: soac.constant() {value = false}
// CHECK-NEXT: imp.yield(%11, %12, %13)
// CHECK: soac.constant() {value = true}
// CHECK-NEXT: imp.yield(%8, %9, %14)
// CHECK: soac.select(%10#2, %15, %9)
// CHECK-NEXT: imp.if(%16)
// CHECK-NEXT: mem.free(%8)
// CHECK: imp.yield(%10#0, %10#1)
"imp.func"() ({
^bb0(%n: i64, %c: i1, %x: !mem.block<host>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %r = "imp.for"(%zero, %n, %one, %x) ({
  ^bb0(%i: i64, %m: !mem.block<host>):
    %s = "imp.if"(%c) ({
      %a = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
      "imp.yield"(%a) : (!mem.block<host>) -> ()
    }, {
      "imp.yield"(%m) : (!mem.block<host>) -> ()
    }) : (i1) -> !mem.block<host>
    "imp.yield"(%s) : (!mem.block<host>) -> ()
  }) : (i64, i64, i64, !mem.block<host>) -> !mem.block<host>
  %z = "imp.load"(%r, %zero) : (!mem.block<host>, i64) -> f32
  "imp.return"(%z) : (f32) -> ()
}) {sym_name = "branch", function_type = (i64, i1, !mem.block<host>) -> f32} : () -> ()

// -----

// A while loop: its condition gets the flag too, and frees nothing.
// CHECK-LABEL: "while"
// CHECK: imp.while(%0, %3)
// CHECK-NEXT: ^bb0(%5: !mem.block<host>, %6: bool):
// CHECK-NOT: mem.free
// CHECK: ^bb0(%9: !mem.block<host>, %10: bool):
// CHECK-NEXT: imp.load(%9
// CHECK-NEXT: imp.if(%10)
// CHECK-NEXT: mem.free(%9)
// CHECK: imp.return(%4#0)
"imp.func"() ({
^bb0(%x: !mem.block<host>, %n: i64):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %r = "imp.while"(%x) ({
  ^bb0(%m: !mem.block<host>):
    %y = "imp.load"(%m, %zero) : (!mem.block<host>, i64) -> i64
    %go = "soac.cmpop"(%y, %n) {kind = "lt"} : (i64, i64) -> i1
    "imp.yield"(%go) : (i1) -> ()
  }, {
  ^bb0(%m: !mem.block<host>):
    %y = "imp.load"(%m, %zero) : (!mem.block<host>, i64) -> i64
    %a = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<host>
    "imp.store"(%a, %zero, %y) : (!mem.block<host>, i64, i64) -> ()
    "imp.yield"(%a) : (!mem.block<host>) -> ()
  }) : (!mem.block<host>) -> !mem.block<host>
  "imp.return"(%r) : (!mem.block<host>) -> ()
}) {sym_name = "while", function_type = (!mem.block<host>, i64) -> !mem.block<host>} : () -> ()
