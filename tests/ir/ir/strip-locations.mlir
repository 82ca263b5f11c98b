// RUN: futmlir opt %s --pass-pipeline=ir-strip-locations --print-debuginfo
// EXACT-OUTPUT
"soac.func"() ({
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32 loc("prog.fut":2:3)
  "soac.return"(%y) : (i32) -> () loc("prog.fut":3:3)
}) {sym_name = "f", function_type = (i32) -> i32} : () -> () loc("prog.fut":1:1)
