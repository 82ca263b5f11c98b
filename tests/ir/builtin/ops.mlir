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

// -----

// mlir-opt's default output: the module in its custom form, values
// renamed, sizes by definition number: `$0` is the constant, whatever its
// name, not the array now called `%0` (Note [Sizes in types across
// mlir-opt]).
// CHECK-LABEL: builtin.module() {sym_name = "m", fut.note = "kept"} ({
// CHECK-NEXT: %0 = soac.constant() {value = 4 : i64} : () -> i64
// CHECK-NEXT: %1 = soac.iota(%0) : (i64) -> [%0]i64
// CHECK-NEXT: %2 = soac.map(%0, %1) ({
// CHECK-NEXT: ^bb0(%3: i64):
// CHECK-NEXT: %4 = soac.replicate(%0, %3) : (i64, i64) -> [%0]i64
// CHECK-NEXT: soac.yield(%4) : ([%0]i64) -> ()
// CHECK-NEXT: }) : (i64, [%0]i64) -> [%0][%0]i64
module @m attributes {fut.note = "kept"} {
  %3 = "soac.constant"() {value = 4 : i64} : () -> i64
  %0 = "soac.iota"(%3) : (i64) -> !fut.array<[$0]i64>
  %1 = "soac.map"(%3, %0) ({
  ^bb0(%arg0: i64):
    %2 = "soac.replicate"(%3, %arg0) : (i64, i64) -> !fut.array<[$0]i64>
    "soac.yield"(%2) : (!fut.array<[$0]i64>) -> ()
  }) : (i64, !fut.array<[$0]i64>) -> !fut.array<[$0][$0]i64>
}
