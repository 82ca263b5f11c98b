// RUN: not futmlir opt %s --pass-pipeline=soac-rewrite{rules=nosuchset} 2>&1

// CHECK: soac-rewrite: unknown rule set `nosuchset` (loaded: arith, logic)
"soac.func"() ({
^bb0(%x: i32):
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i32) -> i32} : () -> ()
