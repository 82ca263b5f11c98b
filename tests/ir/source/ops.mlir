// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "basics"
// CHECK: source.tuple(
// CHECK: source.record_update(
"source.func"() ({
^bb0(%x: i32, %y: f32):
  %c = "source.constant"() {value = 2 : i32} : () -> i32
  %a = "source.binop"(%x, %c) {kind = "mul"} : (i32, i32) -> i32
  %n = "source.unop"(%a) {kind = "neg"} : (i32) -> i32
  %b = "source.cmpop"(%n, %x) {kind = "le"} : (i32, i32) -> i1
  %t = "source.tuple"(%a, %y) : (i32, f32) -> tuple<i32, f32>
  %t0 = "source.tuple_get"(%t) {index = 0 : i64} : (tuple<i32, f32>) -> i32
  %r = "source.record"(%t0, %y) {fields = ["x", "y"]} : (i32, f32) -> !source.record<{x: i32, y: f32}>
  %rx = "source.record_get"(%r) {field = "x"} : (!source.record<{x: i32, y: f32}>) -> i32
  %r2 = "source.record_update"(%r, %n) {field = "x"} : (!source.record<{x: i32, y: f32}>, i32) -> !source.record<{x: i32, y: f32}>
  %i = "source.if"(%b) ({
    "source.yield"(%rx) : (i32) -> ()
  }, {
    "source.yield"(%c) : (i32) -> ()
  }) : (i1) -> i32
  "source.return"(%r2, %i) : (!source.record<{x: i32, y: f32}>, i32) -> ()
}) {sym_name = "basics", function_type = (i32, f32) -> (!source.record<{x: i32, y: f32}>, i32)} : () -> ()

// -----

// CHECK-LABEL: "higher_order"
// CHECK: source.lambda(
// CHECK: source.soac_call(
"source.func"() ({
^bb0(%x: i32):
  "source.return"(%x) : (i32) -> ()
}) {sym_name = "id", function_type = (i32) -> i32} : () -> ()
"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %k: i32):
  %f = "source.lambda"() ({
  ^bb0(%x: i32):
    %y = "source.binop"(%x, %k) {kind = "add"} : (i32, i32) -> i32
    "source.yield"(%y) : (i32) -> ()
  }) : () -> ((i32) -> i32)
  %v = "source.apply"(%f, %k) : ((i32) -> i32, i32) -> i32
  %w = "source.apply"(%v) {callee = @id} : (i32) -> i32
  %ys = "source.soac_call"(%f, %xs) {soac = "map"} : ((i32) -> i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %add = "source.lambda"() ({
  ^bb0(%a: i32, %b: i32):
    %c = "source.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "source.yield"(%c) : (i32) -> ()
  }) : () -> ((i32, i32) -> i32)
  %s = "source.soac_call"(%add, %w, %ys) {soac = "reduce"} : ((i32, i32) -> i32, i32, !fut.array<[%n]i32>) -> i32
  "source.return"(%s) : (i32) -> ()
}) {sym_name = "higher_order", function_type = (i64, !fut.array<[?]i32>, i32) -> i32} : () -> ()

// -----

// CHECK-LABEL: "arrays_and_loops"
// CHECK: source.match(
// CHECK: source.loop(
"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %i: i64, %s: !source.sum<"#some i32 | #none">):
  %zero = "source.constant"() {value = 0 : i32} : () -> i32
  %lit = "source.array_lit"(%zero, %zero) : (i32, i32) -> !fut.array<[2]i32>
  %x = "source.index"(%xs, %i) : (!fut.array<[%n]i32>, i64) -> i32
  %sl = "source.slice"(%xs, %i, %i, %i) : (!fut.array<[%n]i32>, i64, i64, i64) -> !fut.array<[%i]i32>
  %up = "source.update"(%xs, %i, %x) : (!fut.array<[%n]i32>, i64, i32) -> !fut.array<[%n]i32>
  %c = "source.constr"(%zero) {constructor = "some"} : (i32) -> !source.sum<"#some i32 | #none">
  %m = "source.match"(%s) ({
  ^bb0(%v: i32):
    "source.yield"(%v) : (i32) -> ()
  }, {
    "source.yield"(%zero) : (i32) -> ()
  }) {patterns = ["#some v", "#none"]} : (!source.sum<"#some i32 | #none">) -> i32
  %sum = "source.loop"(%up, %m) ({
  ^bb0(%y: i32, %acc: i32):
    %a = "source.binop"(%acc, %y) {kind = "add"} : (i32, i32) -> i32
    "source.yield"(%a) : (i32) -> ()
  }) {form = "for_in"} : (!fut.array<[%n]i32>, i32) -> i32
  %f = "source.loop"(%n, %sum) ({
  ^bb0(%j: i64, %acc: i32):
    "source.yield"(%acc) : (i32) -> ()
  }) {form = "for"} : (i64, i32) -> i32
  "source.return"(%f) : (i32) -> ()
}) {sym_name = "arrays_and_loops", function_type = (i64, !fut.array<[?]i32>, i64, !source.sum<"#some i32 | #none">) -> i32} : () -> ()

// -----

// CHECK-LABEL: "poly_pair"
// CHECK-SAME: type_params = ["a"]
// CHECK: {callee = @poly_pair}
// CHECK: source.size(
// CHECK: source.coerce(
// CHECK: source.range(
// CHECK: source.assert(
// CHECK: source.hole() {message = "a typed hole (`???`) was evaluated"} : () -> i64
// CHECK: {soac = "scatter"}
"source.func"() ({
^bb0(%x: !source.tyvar<"a">):
  %p = "source.array_lit"(%x, %x) : (!source.tyvar<"a">, !source.tyvar<"a">) -> !fut.array<[2]!source.tyvar<"a">>
  "source.return"(%p) : (!fut.array<[2]!source.tyvar<"a">>) -> ()
}) {sym_name = "poly_pair", function_type = (!source.tyvar<"a">) -> !fut.array<[2]!source.tyvar<"a">>, type_params = ["a"]} : () -> ()
"source.func"() ({
^bb0(%f: (!source.tyvar<"a">) -> !source.tyvar<"b">, %x: !source.tyvar<"a">):
  %y = "source.apply"(%f, %x) : ((!source.tyvar<"a">) -> !source.tyvar<"b">, !source.tyvar<"a">) -> !source.tyvar<"b">
  "source.return"(%y) : (!source.tyvar<"b">) -> ()
}) {sym_name = "app", function_type = ((!source.tyvar<"a">) -> !source.tyvar<"b">, !source.tyvar<"a">) -> !source.tyvar<"b">, type_params = ["a", "b"]} : () -> ()
"source.func"() ({
^bb0(%xs: !fut.array<[?][3]f32>, %k: i64, %is: !fut.array<[?]i64>, %vs: !fut.array<[?]i32>):
  %pp = "source.apply"(%xs) {callee = @poly_pair} : (!fut.array<[?][3]f32>) -> !fut.array<[2][?][3]f32>
  %add = "source.lambda"() ({
  ^bb0(%a: i64, %b: i64):
    %c = "source.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
    "source.yield"(%c) : (i64) -> ()
  }) : () -> ((i64, i64) -> i64)
  %inc = "source.apply"(%add, %k) {callee = @app} : ((i64, i64) -> i64, i64) -> ((i64) -> i64)
  %n = "source.size"(%xs) {dim = 0 : i64} : (!fut.array<[?][3]f32>) -> i64
  %ys = "source.coerce"(%xs) : (!fut.array<[?][3]f32>) -> !fut.array<[%n][3]f32>
  %zero = "source.constant"() {value = 0 : i64} : () -> i64
  %r = "source.range"(%zero, %k) {kind = "up_to_exclusive"} : (i64, i64) -> !fut.array<[?]i64>
  %ok = "source.cmpop"(%zero, %k) {kind = "le"} : (i64, i64) -> i1
  "source.assert"(%ok) {message = "Assertion is false: 0 <= k"} : (i1) -> ()
  %h = "source.hole"() {message = "a typed hole (`???`) was evaluated"} : () -> i64
  %dest = "source.apply"(%k, %zero) {callee = @replicate} : (i64, i64) -> !fut.array<[%k]i64>
  %s = "source.soac_call"(%dest, %is, %r) {soac = "scatter"} : (!fut.array<[%k]i64>, !fut.array<[?]i64>, !fut.array<[?]i64>) -> !fut.array<[%k]i64>
  "source.return"(%ys, %s, %pp) : (!fut.array<[%n][3]f32>, !fut.array<[%k]i64>, !fut.array<[2][?][3]f32>) -> ()
}) {sym_name = "sizes_and_polymorphism", function_type = (!fut.array<[?][3]f32>, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> (!fut.array<[?][3]f32>, !fut.array<[?]i64>, !fut.array<[2][?][3]f32>), entry} : () -> ()
"source.func"() ({
^bb0(%r: !source.record<{"x'": i32, "1": f32}>):
  %x = "source.record_get"(%r) {field = "x'"} : (!source.record<{"1": f32, "x'": i32}>) -> i32
  "source.return"(%x) : (i32) -> ()
}) {sym_name = "quoted_fields", function_type = (!source.record<{"1": f32, "x'": i32}>) -> i32} : () -> ()
