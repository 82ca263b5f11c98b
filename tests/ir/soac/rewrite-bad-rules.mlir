// RUN: not futmlir opt %s --rules %S/Inputs/bad.rules --pass-pipeline=soac-rewrite 2>&1

// A malformed user rule file is an error with its file, line and column.
// CHECK: Inputs/bad.rules:2:9: unknown operator `mull` (did you mean one of: max, min, mod, mul
"soac.func"() ({
^bb0(%x: i32):
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i32) -> i32} : () -> ()
