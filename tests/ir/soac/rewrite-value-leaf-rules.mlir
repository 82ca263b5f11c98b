// RUN: not futmlir opt %s --rules %S/Inputs/value-leaf.rules --pass-pipeline=soac-rewrite 2>&1

// A user rule whose right-hand side names an IR value leaf is refused when
// the file is loaded (it rewrote `x + y` to `x`; `v99` panicked).
// CHECK: Inputs/value-leaf.rules:4:26: `v0` is neither a pattern variable, a literal nor a nullary operator
"soac.func"() ({
^bb0(%x: i32, %y: i32):
  %s = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
  "soac.return"(%s) : (i32) -> ()
}) {sym_name = "f", function_type = (i32, i32) -> i32} : () -> ()
