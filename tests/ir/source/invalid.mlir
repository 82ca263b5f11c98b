// RUN: futmlir opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'source.func' op attribute 'function_type' must be a type}}
"source.func"() ({
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = 3 : i64} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.match' op expects 2 regions, found 1}}
  %m = "source.match"(%x) ({
    "source.yield"(%x) : (i32) -> ()
  }) {patterns = ["1", "_"]} : (i32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.loop' op a for-in loop's first block argument must be a row of its array}}
  %l = "source.loop"(%xs, %y) ({
  ^bb0(%e: f32, %acc: f32):
    "source.yield"(%acc) : (f32) -> ()
  }) {form = "for_in"} : (!fut.array<[%n]i32>, f32) -> f32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.apply' op argument #0 has type f32, expected i32}}
  %a = "source.apply"(%f, %y) : ((i32) -> i32, f32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.apply' op expects a 'callee' attribute or a function as operand #0, found i32}}
  %a = "source.apply"(%x) : (i32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.lambda' op region #0 yield #0 has type f32, expected i32}}
  %l = "source.lambda"() ({
  ^bb0(%a: i32):
    "source.yield"(%y) : (f32) -> ()
  }) : () -> ((i32) -> i32)
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.tuple' op element #1 has type i32, expected f32}}
  %u = "source.tuple"(%x, %x) : (i32, i32) -> tuple<i32, f32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.tuple_get' op index 2 is out of range for a tuple of 2 components}}
  %u = "source.tuple_get"(%t) {index = 2 : i64} : (tuple<i32, f32>) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.record' op result type !source.record<{x: i32}> has no field 'z'}}
  %u = "source.record"(%x) {fields = ["z"]} : (i32) -> !source.record<{x: i32}>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.record_get' op record !source.record<{x: i32}> has no field 'y'}}
  %u = "source.record_get"(%r) {field = "y"} : (!source.record<{x: i32}>) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.record_update' op field 'x' has type f32, expected i32}}
  %u = "source.record_update"(%r, %y) {field = "x"} : (!source.record<{x: i32}>, f32) -> !source.record<{x: i32}>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.array_lit' op result has outer size 3, but there are 2 elements}}
  %u = "source.array_lit"(%x, %x) : (i32, i32) -> !fut.array<[3]i32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.array_lit' op element #1 has type f32, which is not a row of [2]i32}}
  %u = "source.array_lit"(%x, %y) : (i32, f32) -> !fut.array<[2]i32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.soac_call' op the function takes 1 arguments, but 2 arrays are mapped}}
  %u = "source.soac_call"(%f, %xs, %xs) {soac = "map"} : ((i32) -> i32, !fut.array<[%n]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.soac_call' op attribute 'soac' must be one of}}
  %u = "source.soac_call"(%f, %xs) {soac = "fold"} : ((i32) -> i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.index' op an index (operand #1) must have type i64, found i32}}
  %u = "source.index"(%xs, %x) : (!fut.array<[%n]i32>, i32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.if' op condition must be i1, found i32}}
  "source.if"(%x) ({
    "source.yield"() : () -> ()
  }, {
    "source.yield"() : () -> ()
  }) : (i32) -> ()
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

// expected-error @+1 {{'source.func' op type variable 'b' of the function type is not among its 'type_params'}}
"source.func"() ({
^bb0(%x: !source.tyvar<"b">):
  "source.return"(%x) : (!source.tyvar<"b">) -> ()
}) {sym_name = "f", function_type = (!source.tyvar<"b">) -> !source.tyvar<"b">, type_params = ["a"]} : () -> ()

// -----

"source.func"() ({
^bb0(%x: !source.tyvar<"a">, %y: !source.tyvar<"a">):
  "source.return"(%x) : (!source.tyvar<"a">) -> ()
}) {sym_name = "first", function_type = (!source.tyvar<"a">, !source.tyvar<"a">) -> !source.tyvar<"a">, type_params = ["a"]} : () -> ()
"source.func"() ({
^bb0(%x: i32, %y: f32):
  // expected-error @+1 {{'source.apply' op argument #1 has type f32, which is not an instance of !source.tyvar<"a"> in this call of @first}}
  %r = "source.apply"(%x, %y) {callee = @first} : (i32, f32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "g", function_type = (i32, f32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.coerce' op result type [?]f32 differs from the operand type [%v0]i32 in more than sizes}}
  %u = "source.coerce"(%xs) : (!fut.array<[%n]i32>) -> !fut.array<[?]f32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.range' op the bounds must be integers, found f32}}
  %u = "source.range"(%y, %y) {kind = "inclusive"} : (f32, f32) -> !fut.array<[?]f32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.size' op attribute 'dim' is 1, out of range for rank 1}}
  %u = "source.size"(%xs) {dim = 1 : i64} : (!fut.array<[%n]i32>) -> i64
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.assert' op condition must be i1}}
  "source.assert"(%x) {message = "Assertion is false: x"} : (i32) -> ()
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%x: i32):
  // expected-error @+1 {{'source.hole' op expects 0 operands, found 1}}
  %h = "source.hole"(%x) {message = "a typed hole (`???`) was evaluated"} : (i32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>, %x: i32, %y: f32, %t: tuple<i32, f32>, %r: !source.record<{x: i32}>, %f: (i32) -> i32):
  // expected-error @+1 {{'source.soac_call' op expects 3 operands, found 2}}
  %u = "source.soac_call"(%xs, %xs) {soac = "scatter"} : (!fut.array<[%n]i32>, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i32, f32, tuple<i32, f32>, !source.record<{x: i32}>, (i32) -> i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%f: (!source.tyvar<"a">) -> !source.tyvar<"b">, %x: !source.tyvar<"a">):
  %y = "source.apply"(%f, %x) : ((!source.tyvar<"a">) -> !source.tyvar<"b">, !source.tyvar<"a">) -> !source.tyvar<"b">
  "source.return"(%y) : (!source.tyvar<"b">) -> ()
}) {sym_name = "app", function_type = ((!source.tyvar<"a">) -> !source.tyvar<"b">, !source.tyvar<"a">) -> !source.tyvar<"b">, type_params = ["a", "b"]} : () -> ()
"source.func"() ({
^bb0(%g: (i64, i64) -> i64, %k: i64):
  // expected-error @+1 {{'source.apply' op result #0 has type i64, which is not an instance of !source.tyvar<"b"> in this call of @app}}
  %r = "source.apply"(%g, %k) {callee = @app} : ((i64, i64) -> i64, i64) -> i64
  "source.return"() : () -> ()
}) {sym_name = "g", function_type = ((i64, i64) -> i64, i64) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%x: i32):
  // expected-error @+1 {{'source.constr' op the sum type !source.sum<"#none | #some i32"> has no constructor `#sum`}}
  %s = "source.constr"(%x) {constructor = "sum"} : (i32) -> !source.sum<"#none | #some i32">
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i32) -> ()} : () -> ()

// -----

"source.func"() ({
^bb0(%x: i32):
  // expected-error @+1 {{'source.constr' op result must be a !source.sum type, found i32}}
  %s = "source.constr"(%x) {constructor = "some"} : (i32) -> i32
  "source.return"() : () -> ()
}) {sym_name = "f", function_type = (i32) -> ()} : () -> ()
