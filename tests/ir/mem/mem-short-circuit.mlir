// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-short-circuit,ir-dce
// RUN: futmlir opt %s --pass-pipeline=segop-to-mem,mem-short-circuit,ir-dce | futmlir opt -

// The two parts of a concat are made by segmaps in the concat's own
// block: the first at element offset 0, the second after the first's
// %n elements; their own blocks go, and the concat's allocation moves up
// before the first segmap. The third part, a parameter, is copied.
// AUTOCHECK
// CHECK: builtin.module() ({
// CHECK-LABEL: soac.func() {sym_name = "parts", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} ({
// CHECK-NEXT: ^bb0([[V0:%[0-9]+]]: i64, [[V1:%[0-9]+]]: i64, [[V2:%[0-9]+]]: [
// CHECK-SAME: [[V0]]]f32, [[V3:%[0-9]+]]: [[[V1]]]f32):
// CHECK-NEXT: [[V4:%[0-9]+]] = soac.constant() {value = 2.0 : f32} : () -> f32
// CHECK-NEXT: [[V5:%[0-9]+]] = soac.binop([[V0]], [[V0]]) {kind = "add"} : (i64, i64) -> i64
// CHECK-NEXT: [[V6:%[0-9]+]] = soac.binop([[V5]], [[V1]]) {kind = "add"} : (i64, i64) -> i64
// CHECK-NEXT: [[V7:%[0-9]+]] = soac.constant() {value = 4 : i64} : () -> i64
// CHECK-NEXT: [[V8:%[0-9]+]] = soac.constant() {value = 0 : i64} : () -> i64
// CHECK-NEXT: [[V9:%[0-9]+]] = soac.constant() {value = 1 : i64} : () -> i64
// CHECK-NEXT: [[V10:%[0-9]+]] = soac.constant() {value = 9223372036854775807 : i64} : () -> i64
// CHECK-NEXT: [[V11:%[0-9]+]] = soac.cmpop([[V6]], [[V8]]) {kind = "eq"} : (i64, i64) -> bool
// CHECK-NEXT: [[V12:%[0-9]+]] = soac.select([[V11]], [[V9]], [[V6]]) : (bool, i64, i64) -> i64
// CHECK-NEXT: [[V13:%[0-9]+]] = soac.binop([[V10]], [[V12]]) {kind = "div"} : (i64, i64) -> i64
// CHECK-NEXT: [[V14:%[0-9]+]] = soac.cmpop([[V7]], [[V13]]) {kind = "gt"} : (i64, i64) -> bool
// CHECK-NEXT: [[V15:%[0-9]+]] = soac.binop([[V7]], [[V6]]) {kind = "mul"} : (i64, i64) -> i64
// CHECK-NEXT: [[V16:%[0-9]+]] = soac.select([[V14]], [[V10]], [[V15]]) : (bool, i64, i64) -> i64
// CHECK-NEXT: [[V17:%[0-9]+]] = mem.alloc([[V16]]) {space = "device"} : (i64) -> !mem.block<device>
// CHECK-NEXT: [[V18:%[0-9]+]] = soac.constant() {value = 1 : i64} : () -> i64
// CHECK-NEXT: [[V19:%[0-9]+]] = soac.constant() {value = 0 : i64} : () -> i64
// CHECK-NEXT: [[V20:%[0-9]+]] = soac.binop([[V19]], [[V18]]) {kind = "mul"} : (i64, i64) -> i64
// CHECK-NEXT: [[V21:%[0-9]+]] = soac.binop([[V19]], [[V0]]) {kind = "add"} : (i64, i64) -> i64
// CHECK-NEXT: [[V22:%[0-9]+]] = soac.binop([[V21]], [[V18]]) {kind = "mul"} : (i64, i64) -> i64
// CHECK-NEXT: [[V23:%[0-9]+]] = segop.segmap([[V0]]) {level = "thread"} ({
// CHECK-NEXT: ^bb0([[V24:%[0-9]+]]: i64):
// CHECK-NEXT: [[V25:%[0-9]+]] = soac.index([[V2]], [[V24]]) : ([[[V0]]]f32, i64) -> f32
// CHECK-NEXT: [[V26:%[0-9]+]] = soac.binop([[V25]], [[V4]]) {kind = "mul"} : (f32, f32) -> f32
// CHECK-NEXT: segop.yield([[V26]]) : (f32) -> ()
// CHECK-NEXT: }) : (i64) -> [[[V0]]]f32
// CHECK-NEXT: mem.bind([[V17]], [[V23]], [[V20]]) : (!mem.block<device>, [[[V0]]]f32, i64) -> ()
// CHECK-NEXT: [[V27:%[0-9]+]] = segop.segmap([[V0]]) {level = "thread"} ({
// CHECK-NEXT: ^bb0([[V28:%[0-9]+]]: i64):
// CHECK-NEXT: [[V29:%[0-9]+]] = soac.index([[V2]], [[V28]]) : ([[[V0]]]f32, i64) -> f32
// CHECK-NEXT: [[V30:%[0-9]+]] = soac.binop([[V29]], [[V4]]) {kind = "add"} : (f32, f32) -> f32
// CHECK-NEXT: segop.yield([[V30]]) : (f32) -> ()
// CHECK-NEXT: }) : (i64) -> [[[V0]]]f32
// CHECK-NEXT: mem.bind([[V17]], [[V27]], [[V22]]) : (!mem.block<device>, [[[V0]]]f32, i64) -> ()
// CHECK-NEXT: [[V31:%[0-9]+]] = soac.concat([[V6]], [[V23]], [[V27]], [[V3]]) {dim = 0 : i64, short_circuit} : (i64, [[[V0]]]f32, [[[V0]]]f32, [[[V1]]]f32) -> [[[V6]]]f32
// CHECK-NEXT: mem.bind([[V17]], [[V31]]) : (!mem.block<device>, [[[V6]]]f32) -> ()
// CHECK-NEXT: soac.return([[V31]]) : ([[[V6]]]f32) -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: }) : () -> ()
"soac.func"() ({
^bb0(%n: i64, %k: i64, %xs: !fut.array<[%n]f32>, %zs: !fut.array<[%k]f32>):
  %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
  %a = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  %b = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    %y = "soac.binop"(%x, %two) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%y) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  %nn = "soac.binop"(%n, %n) {kind = "add"} : (i64, i64) -> i64
  %w = "soac.binop"(%nn, %k) {kind = "add"} : (i64, i64) -> i64
  %c = "soac.concat"(%w, %a, %b, %zs) {dim = 0 : i64} : (i64, !fut.array<[%n]f32>, !fut.array<[%n]f32>, !fut.array<[%k]f32>) -> !fut.array<[%w]f32>
  "soac.return"(%c) : (!fut.array<[%w]f32>) -> ()
}) {sym_name = "parts", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
