// The pipeline printed by --dump-pass-pipeline parses back to itself.
// RUN: futmlir opt %s --allow-unregistered-dialect '--pass-pipeline=ir-dce{max-iters=3},builtin.module(ir-cse, ir-op-stats{json})' --dump-pass-pipeline 2>&1
// RUN: futmlir opt %s --allow-unregistered-dialect '--pass-pipeline=ir-dce{max-iters=3} ,builtin.module(ir-cse,ir-op-stats{json=true})' --dump-pass-pipeline 2>&1
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: ir-dce{max-iters=3},builtin.module(ir-cse,ir-op-stats{json=true})
// CHECK: "builtin.module": 1, "test.a": 1
"test.a"() : () -> ()
