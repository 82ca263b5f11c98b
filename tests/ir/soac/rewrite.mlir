// RUN: futmlir opt %s --split-input-file --pass-pipeline=soac-rewrite

// The built-in schedule (rewrite-rules/simplify.rules) removes identities
// and erases the ops that lose their uses; float x + 0.0 stays.
// CHECK-LABEL: sym_name = "identities"
// CHECK: ^bb0(%0: i32, %1: f32, %2: bool):
// CHECK-NEXT: %3 = soac.constant() {value = 0.0 : f32}
// CHECK-NEXT: %4 = soac.binop(%1, %3) {kind = "add"}
// CHECK-NEXT: soac.return(%0, %4, %2)
"soac.func"() ({
^bb0(%x: i32, %y: f32, %b: i1):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %fzero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %true = "soac.constant"() {value = true} : () -> i1
  %a = "soac.binop"(%x, %zero) {kind = "add"} : (i32, i32) -> i32
  %m = "soac.binop"(%one, %a) {kind = "mul"} : (i32, i32) -> i32
  %f = "soac.binop"(%y, %fzero) {kind = "add"} : (f32, f32) -> f32
  %c = "soac.binop"(%b, %true) {kind = "and"} : (i1, i1) -> i1
  "soac.return"(%m, %f, %c) : (i32, f32, i1) -> ()
}) {sym_name = "identities", function_type = (i32, f32, i1) -> (i32, f32, i1)} : () -> ()

// -----

// Scalar code in a SOAC's region is rewritten in its own block; a value
// used by the SOAC (its neutral element) is rewritten in the function's.
// CHECK-LABEL: sym_name = "regions"
// CHECK: %2 = soac.constant() {value = 0 : i64}
// CHECK-NEXT: %3 = soac.reduce(%0, %2, %1)
// CHECK-NEXT: ^bb0(%4: i64, %5: i64):
// CHECK-NEXT: %6 = soac.binop(%4, %5) {kind = "add"}
// CHECK-NEXT: soac.yield(%6)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i64>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %ne = "soac.binop"(%zero, %zero) {kind = "add"} : (i64, i64) -> i64
  %s = "soac.reduce"(%n, %ne, %xs) ({
  ^bb0(%a: i64, %b: i64):
    %one = "soac.constant"() {value = 1 : i64} : () -> i64
    %a1 = "soac.binop"(%a, %one) {kind = "mul"} : (i64, i64) -> i64
    %c = "soac.binop"(%a1, %b) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%c) : (i64) -> ()
  }) : (i64, i64, !fut.array<[%n]i64>) -> i64
  "soac.return"(%s) : (i64) -> ()
}) {sym_name = "regions", function_type = (i64, !fut.array<[?]i64>) -> i64} : () -> ()
