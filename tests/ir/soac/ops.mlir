// RUN: futmlir opt %s --split-input-file | futmlir opt - --split-input-file

// CHECK-LABEL: "scalars"
// CHECK: soac.binop(
// CHECK: soac.cmpop(
// CHECK: soac.select(
"soac.func"() ({
^bb0(%x: i32, %y: i32, %f: f64):
  %c = "soac.constant"() {value = 3 : i32} : () -> i32
  %a = "soac.binop"(%x, %c) {kind = "add"} : (i32, i32) -> i32
  %b = "soac.cmpop"(%a, %y) {kind = "lt"} : (i32, i32) -> i1
  %n = "soac.unop"(%a) {kind = "neg"} : (i32) -> i32
  %s = "soac.unop"(%f) {kind = "sqrt"} : (f64) -> f64
  %g = "soac.convop"(%n) {kind = "sitofp"} : (i32) -> f64
  %h = "soac.binop"(%g, %s) {kind = "mul"} : (f64, f64) -> f64
  %r = "soac.select"(%b, %h, %f) : (i1, f64, f64) -> f64
  %t = "soac.constant"() {value = true} : () -> i1
  "soac.assert"(%t) {message = "always"} : (i1) -> ()
  "soac.return"(%r) : (f64) -> ()
}) {sym_name = "scalars", function_type = (i32, i32, f64) -> f64} : () -> ()

// -----

// CHECK-LABEL: "math"
// CHECK: {kind = "lgamma"}
// CHECK: {kind = "atan2"}
// CHECK: {kind = "mul_hi"}
// CHECK: soac.ternop(
"soac.func"() ({
^bb0(%x: f32, %y: f32, %i: u64):
  %a = "soac.unop"(%x) {kind = "cbrt"} : (f32) -> f32
  %b = "soac.unop"(%a) {kind = "lgamma"} : (f32) -> f32
  %c = "soac.binop"(%b, %y) {kind = "atan2"} : (f32, f32) -> f32
  %d = "soac.binop"(%c, %y) {kind = "copysign"} : (f32, f32) -> f32
  %h = "soac.binop"(%i, %i) {kind = "mul_hi"} : (u64, u64) -> u64
  %e = "soac.ternop"(%d, %x, %y) {kind = "fma"} : (f32, f32, f32) -> f32
  %f = "soac.ternop"(%e, %x, %y) {kind = "mad"} : (f32, f32, f32) -> f32
  "soac.return"(%f, %h) : (f32, u64) -> ()
}) {sym_name = "math", function_type = (f32, f32, u64) -> (f32, u64)} : () -> ()

// -----

// CHECK-LABEL: "calls"
// CHECK: soac.apply(
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  "soac.return"(%xs) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "id", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %r = "soac.apply"(%n, %xs) {callee = @id} : (i64, !fut.array<[%n]f32>) -> !fut.array<[?]f32>
  "soac.return"(%r) : (!fut.array<[?]f32>) -> ()
}) {sym_name = "calls", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()

// -----

// CHECK-LABEL: "soacs"
// CHECK: soac.map(
// CHECK: soac.reduce(
// CHECK: soac.scan(
// CHECK: soac.redomap(
// CHECK: soac.scanomap(
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %is: !fut.array<[%n]i64>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %ys:2 = "soac.map"(%n, %xs, %is) ({
  ^bb0(%x: f32, %i: i64):
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%y, %i) : (f32, i64) -> ()
  }) : (i64, !fut.array<[%n]f32>, !fut.array<[%n]i64>) -> (!fut.array<[%n]f32>, !fut.array<[%n]i64>)
  %s = "soac.reduce"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) {commutative} : (i64, f32, !fut.array<[%n]f32>) -> f32
  %ps = "soac.scan"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "max"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %rm:2 = "soac.redomap"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }, {
  ^bb0(%x: f32):
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%y, %y) : (f32, f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> (f32, !fut.array<[%n]f32>)
  %sm = "soac.scanomap"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }, {
  ^bb0(%x: f32):
    "soac.yield"(%x) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "soac.return"(%s) : (f32) -> ()
}) {sym_name = "soacs", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]i64>) -> f32} : () -> ()

// -----

// CHECK-LABEL: "writes"
// CHECK: soac.scatter(
// CHECK: soac.hist(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %vs: !fut.array<[%n]i32>, %dest: !fut.array<[%m]i32>):
  %r = "soac.scatter"(%n, %is, %vs, %dest) ({
  ^bb0(%i: i64, %v: i32):
    "soac.yield"(%i, %v) : (i64, i32) -> ()
  }) : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i32>, !fut.array<[%m]i32>) -> !fut.array<[%m]i32>
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %h = "soac.hist"(%n, %m, %r, %zero, %is, %vs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%i: i64, %v: i32):
    "soac.yield"(%i, %v) : (i64, i32) -> ()
  }) : (i64, i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>, !fut.array<[%n]i32>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "writes", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()

// -----

// CHECK-LABEL: "streams"
// CHECK: soac.stream_seq(
// CHECK: soac.stream_par(
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %s:2 = "soac.stream_seq"(%n, %zero, %xs) ({
  ^bb0(%c: i64, %acc: f32, %chunk: !fut.array<[%c]f32>):
    %d = "soac.copy"(%chunk) : (!fut.array<[%c]f32>) -> !fut.array<[%c]f32>
    "soac.yield"(%acc, %d) : (f32, !fut.array<[%c]f32>) -> ()
  }) {num_accs = 1 : i64} : (i64, f32, !fut.array<[%n]f32>) -> (f32, !fut.array<[%n]f32>)
  %p = "soac.stream_par"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }, {
  ^bb0(%c: i64, %acc: f32, %chunk: !fut.array<[%c]f32>):
    "soac.yield"(%acc) : (f32) -> ()
  }) {order = "disorder"} : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"(%p) : (f32) -> ()
}) {sym_name = "streams", function_type = (i64, !fut.array<[?]f32>) -> f32} : () -> ()

// -----

// CHECK-LABEL: "filters"
// CHECK: soac.filter(
// CHECK: soac.size(
// CHECK: soac.partition(
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i64>):
  %ys = "soac.filter"(%n, %xs) ({
  ^bb0(%x: i64):
    %b = "soac.cmpop"(%x, %x) {kind = "eq"} : (i64, i64) -> i1
    "soac.yield"(%b) : (i1) -> ()
  }) : (i64, !fut.array<[%n]i64>) -> !fut.array<[?]i64>
  %k = "soac.size"(%ys) {dim = 0 : i64} : (!fut.array<[?]i64>) -> i64
  %zs = "soac.reshape"(%ys, %k) : (!fut.array<[?]i64>, i64) -> !fut.array<[%k]i64>
  %p:3 = "soac.partition"(%n, %xs) ({
  ^bb0(%x: i64):
    "soac.yield"(%x) : (i64) -> ()
  }) {k = 2 : i64} : (i64, !fut.array<[%n]i64>) -> (i64, i64, !fut.array<[%n]i64>)
  "soac.return"(%ys) : (!fut.array<[?]i64>) -> ()
}) {sym_name = "filters", function_type = (i64, !fut.array<[?]i64>) -> !fut.array<[?]i64>} : () -> ()

// -----

// CHECK-LABEL: "shapes"
// CHECK: soac.iota(
// CHECK: soac.rearrange(
"soac.func"() ({
^bb0(%n: i64, %a: i64, %b: i64, %xs: !fut.array<[%n]f32>):
  %is = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %js = "soac.iota"(%n, %one, %one) : (i64, i32, i32) -> !fut.array<[%n]i32>
  %z = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %zs = "soac.replicate"(%n, %z) : (i64, f32) -> !fut.array<[%n]f32>
  %zz = "soac.replicate"(%a, %zs) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%a][%n]f32>
  %m = "soac.reshape"(%xs, %a, %b) : (!fut.array<[%n]f32>, i64, i64) -> !fut.array<[%a][%b]f32>
  %t = "soac.rearrange"(%m) {perm = [1, 0]} : (!fut.array<[%a][%b]f32>) -> !fut.array<[%b][%a]f32>
  %w = "soac.binop"(%n, %n) {kind = "add"} : (i64, i64) -> i64
  %cc = "soac.concat"(%w, %xs, %zs) {dim = 0 : i64} : (i64, !fut.array<[%n]f32>, !fut.array<[%n]f32>) -> !fut.array<[%w]f32>
  %r = "soac.rotate"(%xs, %a) : (!fut.array<[%n]f32>, i64) -> !fut.array<[%n]f32>
  %x = "soac.index"(%t, %a, %b) : (!fut.array<[%b][%a]f32>, i64, i64) -> f32
  %row = "soac.index"(%t, %a) : (!fut.array<[%b][%a]f32>, i64) -> !fut.array<[%a]f32>
  %u = "soac.update"(%r, %a, %x) : (!fut.array<[%n]f32>, i64, f32) -> !fut.array<[%n]f32>
  %s = "soac.slice"(%u, %a, %b, %a) : (!fut.array<[%n]f32>, i64, i64, i64) -> !fut.array<[%b]f32>
  %c = "soac.copy"(%s) : (!fut.array<[%b]f32>) -> !fut.array<[%b]f32>
  "soac.return"(%c) : (!fut.array<[%b]f32>) -> ()
}) {sym_name = "shapes", function_type = (i64, i64, i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()

// -----

// CHECK-LABEL: "control"
// CHECK: soac.loop(
// CHECK: soac.if(
"soac.func"() ({
^bb0(%n: i64, %c: i1):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %r = "soac.loop"(%n, %zero) ({
  ^bb0(%i: i64, %acc: i64):
    %a = "soac.binop"(%acc, %i) {kind = "add"} : (i64, i64) -> i64
    "soac.yield"(%a) : (i64) -> ()
  }) {form = "for"} : (i64, i64) -> i64
  %w:2 = "soac.loop"(%c, %r) ({
  ^bb0(%go: i1, %x: i64):
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (i64, i64) -> i64
    %more = "soac.cmpop"(%y, %n) {kind = "lt"} : (i64, i64) -> i1
    "soac.yield"(%more, %y) : (i1, i64) -> ()
  }) {form = "while"} : (i1, i64) -> (i1, i64)
  %s = "soac.if"(%c) ({
    "soac.yield"(%r) : (i64) -> ()
  }, {
    "soac.yield"(%w#1) : (i64) -> ()
  }) : (i1) -> i64
  "soac.return"(%s) : (i64) -> ()
}) {sym_name = "control", function_type = (i64, i1) -> i64} : () -> ()

// -----

// A merge parameter whose size changes: the initial value's size is
// known, the parameter's and the yield's are not the same.
// CHECK-LABEL: "variant"
// CHECK: soac.concat(
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %k: i64):
  %r = "soac.loop"(%k, %xs) ({
  ^bb0(%i: i64, %ys: !fut.array<[?]f32>):
    %m = "soac.size"(%ys) {dim = 0 : i64} : (!fut.array<[?]f32>) -> i64
    %ys2 = "soac.reshape"(%ys, %m) : (!fut.array<[?]f32>, i64) -> !fut.array<[%m]f32>
    %w = "soac.binop"(%m, %m) {kind = "add"} : (i64, i64) -> i64
    %zs = "soac.concat"(%w, %ys2, %ys2) {dim = 0 : i64} : (i64, !fut.array<[%m]f32>, !fut.array<[%m]f32>) -> !fut.array<[%w]f32>
    "soac.yield"(%zs) : (!fut.array<[%w]f32>) -> ()
  }) {form = "for"} : (i64, !fut.array<[%n]f32>) -> !fut.array<[?]f32>
  "soac.return"(%r) : (!fut.array<[?]f32>) -> ()
}) {sym_name = "variant", function_type = (i64, !fut.array<[?]f32>, i64) -> !fut.array<[?]f32>} : () -> ()

// -----

// CHECK-LABEL: "post_lambdas"
// CHECK: soac.screma(
// CHECK: soac.scatter(
// CHECK-SAME: num_writes = [2 : i64]
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f64>, %is: !fut.array<[%n]i64>, %js: !fut.array<[%n]i64>, %dest: !fut.array<[%m]f64>):
  %zero = "soac.constant"() {value = 0.0 : f64} : () -> f64
  %m0, %ps, %ds = "soac.screma"(%n, %zero, %zero, %xs) ({
  ^bb0(%a: f64, %b: f64):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f64, f64) -> f64
    "soac.yield"(%c) : (f64) -> ()
  }, {
  ^bb0(%a: f64, %b: f64):
    %c = "soac.binop"(%a, %b) {kind = "max"} : (f64, f64) -> f64
    "soac.yield"(%c) : (f64) -> ()
  }, {
  ^bb0(%x: f64):
    "soac.yield"(%x, %x, %x) : (f64, f64, f64) -> ()
  }, {
  ^bb0(%s: f64, %x: f64):
    %d = "soac.binop"(%s, %x) {kind = "sub"} : (f64, f64) -> f64
    "soac.yield"(%s, %d) : (f64, f64) -> ()
  }) : (i64, f64, f64, !fut.array<[%n]f64>) -> (f64, !fut.array<[%n]f64>, !fut.array<[%n]f64>)
  %r = "soac.scatter"(%n, %is, %js, %ps, %dest) ({
  ^bb0(%i: i64, %j: i64, %p: f64):
    "soac.yield"(%i, %j, %p, %p) : (i64, i64, f64, f64) -> ()
  }) {num_writes = [2]} : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i64>, !fut.array<[%n]f64>, !fut.array<[%m]f64>) -> !fut.array<[%m]f64>
  "soac.return"(%r, %ds) : (!fut.array<[%m]f64>, !fut.array<[%n]f64>) -> ()
}) {sym_name = "post_lambdas", function_type = (i64, i64, !fut.array<[?]f64>, !fut.array<[?]i64>, !fut.array<[?]i64>, !fut.array<[?]f64>) -> (!fut.array<[?]f64>, !fut.array<[?]f64>)} : () -> ()

// -----

// CHECK-LABEL: "tangent"
// CHECK: soac.jvp(
"soac.func"() ({
^bb0(%x: f32, %dx: f32):
  %y:2 = "soac.jvp"(%x, %dx) ({
  ^bb0(%a: f32):
    %b = "soac.unop"(%a) {kind = "sin"} : (f32) -> f32
    "soac.yield"(%b) : (f32) -> ()
  }) : (f32, f32) -> (f32, f32)
  "soac.return"(%y#1) : (f32) -> ()
}) {sym_name = "tangent", function_type = (f32, f32) -> f32} : () -> ()

// -----

// CHECK-LABEL: "adjoint"
// CHECK: soac.vjp(
// CHECK: soac.with_vjp(
"soac.func"() ({
^bb0(%x: f32, %dy: f32):
  %y:2 = "soac.vjp"(%x, %dy) ({
  ^bb0(%a: f32):
    %r = "soac.with_vjp"(%a) ({
    ^bb0(%b: f32):
      %c = "soac.unop"(%b) {kind = "round"} : (f32) -> f32
      "soac.yield"(%c) : (f32) -> ()
    }, {
    ^bb0(%c: f32, %dc: f32):
      "soac.yield"(%dc) : (f32) -> ()
    }) : (f32) -> f32
    "soac.yield"(%r) : (f32) -> ()
  }) : (f32, f32) -> (f32, f32)
  "soac.return"(%y#1) : (f32) -> ()
}) {sym_name = "adjoint", function_type = (f32, f32) -> f32} : () -> ()

// -----

// CHECK-LABEL: "accumulators"
// CHECK: soac.scatter_stream(
// CHECK: soac.acc_write(
// CHECK: soac.hist_stream(
// CHECK: soac.loop(
// CHECK: soac.acc_write(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %is: !fut.array<[%n]i64>, %dest: !fut.array<[%m]i32>):
  %r = "soac.scatter_stream"(%n, %dest, %is) ({
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %one = "soac.constant"() {value = 1 : i32} : () -> i32
    %acc2 = "soac.acc_write"(%acc, %i, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %h = "soac.hist_stream"(%n, %r, %zero, %is) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
    %two = "soac.constant"() {value = 2 : i64} : () -> i64
    %acc2 = "soac.loop"(%two, %acc) ({
    ^bb0(%j: i64, %a: !fut.array<[%m]i32>):
      %k = "soac.binop"(%i, %j) {kind = "add"} : (i64, i64) -> i64
      %v = "soac.convop"(%j) {kind = "trunc"} : (i64) -> i32
      %a2 = "soac.acc_write"(%a, %k, %v) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
      "soac.yield"(%a2) : (!fut.array<[%m]i32>) -> ()
    }) {form = "for"} : (i64, !fut.array<[%m]i32>) -> !fut.array<[%m]i32>
    "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
  }) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
  "soac.return"(%h) : (!fut.array<[%m]i32>) -> ()
}) {sym_name = "accumulators", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
