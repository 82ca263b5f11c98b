// Only passes that change the IR are dumped.
// RUN: futmlir opt %s --allow-unregistered-dialect --pass-pipeline=ir-op-stats,ir-strip-locations --print-ir-after-change --print-debuginfo 2>&1
// CHECK-NOT: IR Dump After ir-op-stats
// CHECK: IR Dump After ir-strip-locations
"test.a"() : () -> () loc("x.fut":3:4)
