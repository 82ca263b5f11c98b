// RUN: not futmlir opt %s --pass-pipeline=ir-dce{max-iters=lots} 2>&1
// CHECK: bad value for option 'max-iters' of 'ir-dce': expected unsigned integer, found 'lots'
// CHECK: ir-dce{max-iters=lots}
// CHECK-NEXT: ^^|^
"builtin.module"() ({
}) : () -> ()
