// RUN: futmlir opt %s --rules %S/Inputs/strength.rules --pass-pipeline=soac-rewrite{rules=strength:4} | futmlir opt -
// RUN: futmlir opt %s --rules %S/Inputs/strength.rules --pass-pipeline=soac-rewrite

// A user's rule file (Inputs/strength.rules) changes the result: its set
// runs when named, and its schedule runs after the built-in ones when no
// set is named.
// CHECK-LABEL: sym_name = "strength"
// CHECK: ^bb0(%0: i32):
// CHECK-NEXT: %1 = soac.binop(%0, %0) {kind = "add"}
// CHECK-NEXT: %2 = soac.constant() {value = 0 : i32}
// CHECK-NEXT: soac.return(%1, %2)
"soac.func"() ({
^bb0(%x: i32):
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %d = "soac.binop"(%x, %two) {kind = "mul"} : (i32, i32) -> i32
  %z = "soac.binop"(%d, %d) {kind = "sub"} : (i32, i32) -> i32
  "soac.return"(%d, %z) : (i32, i32) -> ()
}) {sym_name = "strength", function_type = (i32) -> (i32, i32)} : () -> ()
