// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file
// RUN: futmlir opt %s --split-input-file --print-op-generic | futmlir opt - --split-input-file

// CHECK-LABEL: builtin.module() ({
// CHECK-NEXT: %0 = soac.constant() {value = 4 : i64} : () -> i64
// CHECK-NEXT: %1 = soac.iota(%0) : (i64) -> [%0]i64
// CHECK-NEXT: }) : () -> ()
"builtin.module"() ({
  %n = "soac.constant"() {value = 4 : i64} : () -> i64
  %r = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
}) : () -> ()

// -----

// Ops outside a module are wrapped in one.
// CHECK-LABEL: builtin.module() ({
// CHECK-NEXT: soac.constant() {value = 1.5 : f32} : () -> f32
%x = "soac.constant"() {value = 1.5 : f32} : () -> f32
