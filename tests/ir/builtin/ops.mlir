// RUN: futmlir opt %s --split-input-file --allow-unregistered-dialect | futmlir opt - --split-input-file --allow-unregistered-dialect
// RUN: futmlir opt %s --split-input-file --allow-unregistered-dialect --print-op-generic | futmlir opt - --split-input-file --allow-unregistered-dialect

// CHECK-LABEL: builtin.module() ({
// CHECK-NEXT: %0 = test.a() {value = 1 : i64} : () -> i64
// CHECK-NEXT: %1:2 = test.b(%0) : (i64) -> ([%0]f32, u32)
// CHECK-NEXT: }) : () -> ()
"builtin.module"() ({
  %n = "test.a"() {value = 1 : i64} : () -> i64
  %r:2 = "test.b"(%n) : (i64) -> (!fut.array<[%n]f32>, ui32)
}) : () -> ()

// -----

// Ops outside a module are wrapped in one.
// CHECK-LABEL: builtin.module() ({
// CHECK-NEXT: test.c() : () -> ()
"test.c"() : () -> ()
