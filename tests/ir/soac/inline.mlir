// RUN: futmlir opt %s --pass-pipeline=soac-inline | futmlir opt -

// Calls are replaced by the callee's body, callees first (`quad` calls
// `double`); a call in a SOAC's region is inlined in that region; the
// functions left uncalled go, the entry point stays.
// CHECK-LABEL: sym_name = "main"
// CHECK-NOT: soac.apply
// CHECK: %3 = soac.binop(%1, %1) {kind = "add"}
// CHECK-NEXT: %4 = soac.binop(%3, %3) {kind = "add"}
// CHECK-NEXT: %5 = soac.map(%0, %2)
// CHECK: soac.binop(%6, %6) {kind = "add"}
// CHECK-NOT: sym_name = "double"
// CHECK-NOT: sym_name = "quad"
"soac.func"() ({
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  "soac.return"(%y) : (i32) -> ()
}) {sym_name = "double", function_type = (i32) -> i32} : () -> ()
"soac.func"() ({
^bb0(%x: i32):
  %y = "soac.apply"(%x) {callee = @double} : (i32) -> i32
  %z = "soac.apply"(%y) {callee = @double} : (i32) -> i32
  "soac.return"(%z) : (i32) -> ()
}) {sym_name = "quad", function_type = (i32) -> i32} : () -> ()
"soac.func"() ({
^bb0(%n: i64, %x: i32, %arr: !fut.array<[%n]i32>):
  %q = "soac.apply"(%x) {callee = @quad} : (i32) -> i32
  %m = "soac.map"(%n, %arr) ({
  ^bb0(%e: i32):
    %d = "soac.apply"(%e) {callee = @double} : (i32) -> i32
    "soac.yield"(%d) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%q, %m) : (i32, !fut.array<[%n]i32>) -> ()
}) {sym_name = "main", function_type = (i64, i32, !fut.array<[?]i32>) -> (i32, !fut.array<[?]i32>), entry} : () -> ()
