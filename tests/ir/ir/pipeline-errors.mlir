// Bad pipelines are diagnosed with a caret under the bad part and close names.
// RUN: not futmlir opt %s --pass-pipeline=ir-cse,ir-dse 2>&1
// CHECK: unknown pass 'ir-dse'
// CHECK: ir-cse,ir-dse
// CHECK-NEXT: ^^^|^^
// CHECK: did you mean 'ir-cse', 'ir-dce'?
"builtin.module"() ({
}) : () -> ()
