// RUN: futmlir opt %s --allow-unregistered-dialect --pass-pipeline=ir-strip-locations,builtin.module(ir-cse) --print-ir-after-all --timing 2>&1
// CHECK: // -----// IR Dump After ir-strip-locations //----- //
// CHECK: // -----// IR Dump After ir-cse //----- //
// CHECK: Execution time report
// CHECK: ----Wall Time---- ----Name----
// CHECK-NEXT: ir-strip-locations
// CHECK-NEXT: 'builtin.module' Pipeline
// CHECK-NEXT: ir-cse
// CHECK-NEXT: (100.0%) Total
"test.a"() : () -> ()
