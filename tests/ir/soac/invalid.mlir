// RUN: futmlir opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'soac.func' op returned value #0 has type i32, expected f32}}
"soac.func"() ({
^bb0(%x: i32):
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i32) -> f32} : () -> ()

// -----

// expected-error @+1 {{'soac.func' op region #0 argument: expects 1 values, found 0}}
"soac.func"() ({
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i32) -> ()} : () -> ()

// -----

// expected-error @+1 {{'soac.func' op expects attribute 'sym_name'}}
"soac.func"() ({
  "soac.return"() : () -> ()
}) {function_type = () -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%c: i1):
  "soac.if"(%c) ({
    // expected-error @+1 {{'soac.return' op must be nested directly in a function}}
    "soac.return"() : () -> ()
  }, {
    "soac.yield"() : () -> ()
  }) : (i1) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i1) -> ()} : () -> ()

// -----

"soac.func"() ({
  // expected-error @+1 {{'soac.yield' op must end a region of a structured op}}
  "soac.yield"() : () -> ()
}) {sym_name = "f", function_type = () -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%x: i32):
  "soac.return"() : () -> ()
}) {sym_name = "g", function_type = (i32) -> ()} : () -> ()
"soac.func"() ({
^bb0(%x: f32):
  // expected-error @+1 {{'soac.apply' op argument #0 has type f32, expected i32}}
  "soac.apply"(%x) {callee = @g} : (f32) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.constant' op attribute 'value' does not have the result type f32}}
  %c = "soac.constant"() {value = 1 : i32} : () -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.binop' op expects operands and result of one type}}
  %c = "soac.binop"(%x, %i) {kind = "add"} : (f32, i32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.binop' op attribute 'kind' must be one of}}
  %c = "soac.binop"(%x, %x) {kind = "plus"} : (f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.binop' op 'shl' does not apply to f32}}
  %c = "soac.binop"(%x, %x) {kind = "shl"} : (f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.binop' op 'mul_hi' does not apply to f32}}
  %c = "soac.binop"(%x, %x) {kind = "mul_hi"} : (f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.binop' op 'atan2' does not apply to i32}}
  %c = "soac.binop"(%i, %i) {kind = "atan2"} : (i32, i32) -> i32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.unop' op 'lgamma' does not apply to i32}}
  %c = "soac.unop"(%i) {kind = "lgamma"} : (i32) -> i32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.ternop' op 'fma' does not apply to i32}}
  %c = "soac.ternop"(%i, %i, %i) {kind = "fma"} : (i32, i32, i32) -> i32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.ternop' op expects operands and result of one type}}
  %c = "soac.ternop"(%x, %x, %i) {kind = "mad"} : (f32, f32, i32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.ternop' op attribute 'kind' must be one of}}
  %c = "soac.ternop"(%x, %x, %x) {kind = "lerp"} : (f32, f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.ternop' op expects 3 operands}}
  %c = "soac.ternop"(%x, %x) {kind = "fma"} : (f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.cmpop' op result must be i1, found i32}}
  %c = "soac.cmpop"(%i, %i) {kind = "eq"} : (i32, i32) -> i32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.unop' op 'sqrt' does not apply to i32}}
  %c = "soac.unop"(%i) {kind = "sqrt"} : (i32) -> i32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.convop' op 'sext' cannot convert i32 to f32}}
  %c = "soac.convop"(%i) {kind = "sext"} : (i32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.select' op condition must be i1, found i32}}
  %c = "soac.select"(%i, %x, %x) : (i32, f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.assert' op expects attribute 'message'}}
  "soac.assert"(%b) : (i1) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.map' op operand #1 has outer size}}
  %r = "soac.map"(%n, %ys) ({
  ^bb0(%y: f32):
    "soac.yield"(%y) : (f32) -> ()
  }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.map' op region #0 argument #0 has type i32, but operand #1 has rows of another type}}
  %r = "soac.map"(%n, %xs) ({
  ^bb0(%y: i32):
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]i32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.map' op result #0 has type [?]i32, expected an array of outer size n of f32}}
  %r = "soac.map"(%n, %xs) ({
  ^bb0(%y: f32):
    "soac.yield"(%y) : (f32) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[?]i32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.reduce' op region #0 yield #0 has type i32, expected f32}}
  %r = "soac.reduce"(%n, %x, %xs) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%i) : (i32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.scan' op expects 3 operands, found 2}}
  %r = "soac.scan"(%n, %x) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (i64, f32) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.redomap' op region #0 (the operator) must have an even number of block arguments, found 1}}
  %r = "soac.redomap"(%n, %x, %xs) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.scanomap' op region #1 (the map lambda) must yield at least 1 values, found 0}}
  %r = "soac.scanomap"(%n, %x, %xs) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32):
    "soac.yield"() : () -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.scatter' op region #0 yield #0 (an index) must be i64}}
  %r = "soac.scatter"(%n, %xs, %ys) ({
  ^bb0(%a: f32):
    "soac.yield"(%a, %a) : (f32, f32) -> ()
  }) : (i64, !fut.array<[%n]f32>, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.hist' op destination #0 has outer size}}
  %r = "soac.hist"(%n, %m, %xs, %x, %xs) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32):
    "soac.yield"(%n, %a) : (i64, f32) -> ()
  }) : (i64, i64, !fut.array<[%n]f32>, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.stream_seq' op expects attribute 'num_accs'}}
  %r = "soac.stream_seq"(%n, %x, %xs) ({
  ^bb0(%c: i64, %acc: f32, %ch: !fut.array<[%c]f32>):
    "soac.yield"(%acc) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.stream_seq' op region #0 argument #2 has type [?][2]f32, expected a chunk of operand #2 of the chunk size}}
  %r = "soac.stream_seq"(%n, %x, %xs) ({
  ^bb0(%c: i64, %acc: f32, %ch: !fut.array<[?][2]f32>):
    "soac.yield"(%acc) : (f32) -> ()
  }) {num_accs = 1 : i64} : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.stream_par' op attribute 'order' must be one of "in_order", "disorder", found "sideways"}}
  %r = "soac.stream_par"(%n, %x, %xs) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%c: i64, %acc: f32, %ch: !fut.array<[%c]f32>):
    "soac.yield"(%acc) : (f32) -> ()
  }) {order = "sideways"} : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.filter' op region #0 (the predicate) must yield one i1}}
  %r = "soac.filter"(%n, %xs) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[?]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.partition' op expects 3 results, found 2}}
  %r:2 = "soac.partition"(%n, %xs) ({
  ^bb0(%a: f32):
    "soac.yield"(%n) : (i64) -> ()
  }) {k = 2 : i64} : (i64, !fut.array<[%n]f32>) -> (i64, !fut.array<[%n]f32>)
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.iota' op result #0 has type}}
  %r = "soac.iota"(%n) : (i64) -> !fut.array<[%m]i64>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.replicate' op the outer size (operand #0) must have type i64, found i32}}
  %r = "soac.replicate"(%i, %x) : (i32, f32) -> !fut.array<[?]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.reshape' op result has type}}
  %r = "soac.reshape"(%xs, %m, %m) : (!fut.array<[%n]f32>, i64, i64) -> !fut.array<[%m]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.rearrange' op attribute 'perm' must be a permutation of 0..1, found [1]}}
  %r = "soac.rearrange"(%xs) {perm = [1]} : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.concat' op operand #2 must be an array, found i32}}
  %r = "soac.concat"(%n, %xs, %i) : (i64, !fut.array<[%n]f32>, i32) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.rotate' op expects 2 operands, found 3}}
  %r = "soac.rotate"(%xs, %n, %n) : (!fut.array<[%n]f32>, i64, i64) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.index' op expects 1 to 1 indices for an array of rank 1, found 2}}
  %r = "soac.index"(%xs, %n, %n) : (!fut.array<[%n]f32>, i64, i64) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.update' op indexed value has type i32, expected the array's element after 1 indices}}
  %r = "soac.update"(%xs, %n, %i) : (!fut.array<[%n]f32>, i64, i32) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.slice' op expects an (offset, length, stride) triple}}
  %r = "soac.slice"(%xs, %n, %n, %n, %n) : (!fut.array<[%n]f32>, i64, i64, i64, i64) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.copy' op operand #0 must be an array, found f32}}
  %r = "soac.copy"(%x) : (f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.loop' op region #0 yield #0 has type i32, expected f32}}
  %r = "soac.loop"(%n, %x) ({
  ^bb0(%k: i64, %acc: f32):
    "soac.yield"(%i) : (i32) -> ()
  }) {form = "for"} : (i64, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.loop' op a while loop's first merge value is its i1 condition, found f32}}
  %r = "soac.loop"(%x) ({
  ^bb0(%acc: f32):
    "soac.yield"(%acc) : (f32) -> ()
  }) {form = "while"} : (f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.if' op region #1 yield: expects 1 values, found 0}}
  %r = "soac.if"(%b) ({
    "soac.yield"(%x) : (f32) -> ()
  }, {
    "soac.yield"() : () -> ()
  }) : (i1) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.size' op attribute 'dim' is 1, out of range for rank 1}}
  %r = "soac.size"(%xs) {dim = 1 : i64} : (!fut.array<[%n]f32>) -> i64
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%m]f32>, %x: f32, %i: i32, %b: i1):
  // expected-error @+1 {{'soac.size' op operand #0 must be an array, found f32}}
  %r = "soac.size"(%x) : (f32) -> i64
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]f32>, !fut.array<[?]f32>, f32, i32, i1) -> ()} : () -> ()

// -----

// The size parameters are some of the parameters (segop-to-imp panicked on
// more of them than parameters).
// expected-error @+1 {{'soac.func' op attribute 'size_params' is 5, but the function has 2 parameters}}
"soac.func"() ({
^bb0(%n: i64, %x: i32):
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i64, i32) -> i32, size_params = 5 : i64} : () -> ()

// -----

// expected-error @+1 {{'soac.func' op the first 2 parameters are sizes ('size_params') and must be i64, not i32}}
"soac.func"() ({
^bb0(%n: i64, %x: i32):
  "soac.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i64, i32) -> i32, size_params = 2 : i64} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %x: f32):
  // expected-error @+1 {{'soac.screma' op region #3 argument: expects 1 values, found 2}}
  %r = "soac.screma"(%n, %x, %xs) ({
  ^bb0(%a: f32, %c: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0:
    "soac.yield"() : () -> ()
  }, {
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]f32>, f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %vs: !fut.array<[%n]f32>, %dest: !fut.array<[%m]f32>):
  // expected-error @+1 {{'soac.scatter' op region #0 must yield 2 indices and 2 values, found 2 values}}
  %r = "soac.scatter"(%n, %is, %vs, %dest) ({
  ^bb0(%i: i64, %v: f32):
    "soac.yield"(%i, %v) : (i64, f32) -> ()
  }) {num_writes = [2]} : (i64, !fut.array<[%n]i64>, !fut.array<[%n]f32>, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]f32>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%x: f32, %dx: f64):
  // expected-error @+1 {{'soac.jvp' op tangents #0}}
  %y:2 = "soac.jvp"(%x, %dx) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (f32, f64) -> (f32, f32)
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (f32, f64) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%x: f32, %dx: f32):
  // expected-error @+1 {{'soac.jvp' op expects 2 results, found 1}}
  %y = "soac.jvp"(%x, %dx) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (f32, f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (f32, f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%x: f32, %dy: f64):
  // expected-error @+1 {{'soac.vjp' op cotangents #0}}
  %y:2 = "soac.vjp"(%x, %dy) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }) : (f32, f64) -> (f32, f32)
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (f32, f64) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%x: f32):
  // expected-error @+1 {{'soac.with_vjp' op region #1 yield}}
  %y = "soac.with_vjp"(%x) ({
  ^bb0(%a: f32):
    "soac.yield"(%a) : (f32) -> ()
  }, {
  ^bb0(%a: f32, %da: f32):
    %z = "soac.convop"(%da) {kind = "fpconv"} : (f32) -> f64
    "soac.yield"(%z) : (f64) -> ()
  }) : (f32) -> f32
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  // expected-error @+1 {{'soac.scatter_stream' op region #0 expects 2 block arguments, found 1}}
  %r = "soac.scatter_stream"(%n, %dest, %is) ({
  ^bb0(%acc: !fut.array<[%m]i32>):
    "soac.yield"(%acc) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%r) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  // expected-error @+1 {{'soac.hist_stream' op the neutral element has type i64, but the destination has rows of another type}}
  %h = "soac.hist_stream"(%n, %dest, %zero, %is) ({
  ^bb0(%a: i32, %b: i32):
    "soac.yield"(%a) : (i32) -> ()
  }, {
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    "soac.yield"(%acc) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i64, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "f", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

"soac.func"() ({
^bb0(%m: i64, %acc: !fut.array<[%m]i32>, %i: i64, %v: f32):
  // expected-error @+1 {{'soac.acc_write' op the value has type f32, but the accumulator [%v0]i32 has rows of another type}}
  %a = "soac.acc_write"(%acc, %i, %v) : (!fut.array<[%m]i32>, i64, f32) -> !fut.array<[%m]i32>
  "soac.return"(%a) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>, i64, f32) -> !fut.array<[?]i32>} : () -> ()
