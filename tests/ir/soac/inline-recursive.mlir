// RUN: not futmlir opt %s --pass-pipeline=soac-inline 2>&1

// Hand-written IR can have a cycle of calls; Futhark programs cannot.
// CHECK: soac-inline: this function calls itself (through a cycle of calls)
"soac.func"() ({
^bb0(%x: i32):
  %y = "soac.apply"(%x) {callee = @f} : (i32) -> i32
  "soac.return"(%y) : (i32) -> ()
}) {sym_name = "f", function_type = (i32) -> i32, entry} : () -> ()
