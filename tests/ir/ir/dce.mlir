// RUN: futmlir opt %s --pass-pipeline=ir-dce

// Unused pure ops go, chains included; ops with effects stay.
// CHECK-LABEL: soac.func() {sym_name = "dead"
// CHECK-NEXT: ^bb0([[X:%[0-9]+]]: i32):
// CHECK-NEXT: [[TRUE:%[0-9]+]] = soac.constant() {value = true}
// CHECK-NEXT: soac.assert([[TRUE]])
// CHECK-NEXT: soac.return([[X]])
"soac.func"() ({
^bb0(%x: i32):
  %a = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  %b = "soac.binop"(%a, %x) {kind = "mul"} : (i32, i32) -> i32
  %t = "soac.constant"() {value = true} : () -> i1
  "soac.assert"(%t) {message = "kept"} : (i1) -> ()
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "dead", function_type = (i32) -> i32} : () -> ()
