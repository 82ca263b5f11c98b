// RUN: futmlir opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'imp.func' op returned value: expects 0 values, found 1}}
"imp.func"() ({
^bb0(%n: i64):
  "imp.return"(%n) : (i64) -> ()
}) {sym_name = "f", function_type = (i64) -> ()} : () -> ()

// -----

// expected-error @+1 {{'imp.kernel' op a kernel returns no results}}
"imp.kernel"() ({
^bb0(%n: i64):
  "imp.return"(%n) : (i64) -> ()
}) {sym_name = "k", function_type = (i64) -> i64} : () -> ()

// -----

// expected-error @+1 {{'imp.kernel' op attribute 'block_size' must be 1 to 3 positive integers, found [0]}}
"imp.kernel"() ({
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = () -> (), block_size = [0]} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%m: i64):
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = (i64) -> ()} : () -> ()
"imp.func"() ({
^bb0(%n: i64, %x: f32):
  // expected-error @+1 {{'imp.launch' op kernel argument #0 has type f32, expected i64}}
  "imp.launch"(%n, %n, %n, %n, %n, %n, %x) {callee = @k} : (i64, i64, i64, i64, i64, i64, f32) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.launch' op expects at least 6 operands, found 2}}
  "imp.launch"(%n, %n) {callee = @k} : (i64, i64) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.for' op bounds and step must be integers of one type}}
  "imp.for"(%n, %i, %n) ({
  ^bb0(%k: i64):
    "imp.yield"() : () -> ()
  }) : (i64, i32, i64) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.while' op region #0 (the condition) must yield one i1}}
  "imp.while"() ({
    "imp.yield"(%n) : (i64) -> ()
  }, {
    "imp.yield"() : () -> ()
  }) : () -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.if' op condition must be i1, found i64}}
  "imp.if"(%n) ({
    "imp.yield"() : () -> ()
  }, {
    "imp.yield"() : () -> ()
  }) : (i64) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.load' op operand #0 must be a memory block, found f32}}
  %y = "imp.load"(%x, %n) : (f32, i64) -> f32
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.store' op the index (operand #1) must have type i64, found i32}}
  "imp.store"(%d, %i, %x) : (!mem.block<device>, i32, f32) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.barrier' op must be inside an 'imp.kernel'}}
  "imp.barrier"() : () -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.fence' op must be inside an 'imp.kernel'}}
  "imp.fence"() : () -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.barrier' op attribute 'fence' must be one of "local", "global", found "system"}}
  "imp.barrier"() {fence = "system"} : () -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.shared_alloc' op result must be !mem.block<shared>, found !mem.block<device>}}
  %s = "imp.shared_alloc"(%n) : (i64) -> !mem.block<device>
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.atomic' op 'xor' needs an integer, found f32}}
  %o = "imp.atomic"(%d, %n, %x) {kind = "xor"} : (!mem.block<device>, i64, f32) -> f32
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.atomic' op atomics need device or shared memory}}
  %o = "imp.atomic"(%h, %n, %i) {kind = "add"} : (!mem.block<host>, i64, i32) -> i32
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.thread_id' op attribute 'dim' must be 0, 1 or 2, found 3}}
  %t = "imp.thread_id"() {dim = 3 : i64} : () -> i64
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.block_id' op must be inside an 'imp.kernel'}}
  %t = "imp.block_id"() {dim = 0 : i64} : () -> i64
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.block_dim' op result must be i64, found i32}}
  %t = "imp.block_dim"() {dim = 0 : i64} : () -> i32
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  // expected-error @+1 {{'imp.grid_dim' op expects attribute 'dim'}}
  %t = "imp.grid_dim"() : () -> i64
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64, %i: i32, %x: f32, %d: !mem.block<device>, %h: !mem.block<host>):
  "imp.for"(%n, %n, %n) ({
  ^bb0(%k: i64):
    // expected-error @+1 {{'imp.return' op must be nested directly in a function}}
    "imp.return"() : () -> ()
  }) : (i64, i64, i64) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, i32, f32, !mem.block<device>, !mem.block<host>) -> ()} : () -> ()

// -----

"imp.func"() ({
  // expected-error @+1 {{'imp.yield' op must end a region of a structured op}}
  "imp.yield"() : () -> ()
}) {sym_name = "f", function_type = () -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%x: i32):
  "imp.return"(%x) : (i32) -> ()
}) {sym_name = "f", function_type = (i32) -> i32} : () -> ()
"imp.func"() ({
^bb0(%y: i64):
  // expected-error @+1 {{'imp.call' op argument}}
  %r = "imp.call"(%y) {callee = @f} : (i64) -> i32
  "imp.return"() : () -> ()
}) {sym_name = "main", function_type = (i64) -> (), entry} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%m: !mem.block<device>, %i: i64):
  // expected-error @+1 {{'imp.load' op attribute 'width' must be 2, 4 or 8, found 3}}
  %a:3 = "imp.load"(%m, %i) {width = 3 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32)
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = (!mem.block<device>, i64) -> (), block_size = [256]} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%m: !mem.block<device>, %i: i64, %x: f32, %y: i32):
  // expected-error @+1 {{'imp.store' op every stored value of a wide access has one type, but found f32 and i32}}
  "imp.store"(%m, %i, %x, %y) {width = 2 : i64} : (!mem.block<device>, i64, f32, i32) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = (!mem.block<device>, i64, f32, i32) -> (), block_size = [256]} : () -> ()

// -----

"imp.func"() ({
^bb0(%m: !mem.block<device>, %i: i64):
  // expected-error @+1 {{'imp.load' op an access with a 'width' must be inside an 'imp.kernel'}}
  %a:2 = "imp.load"(%m, %i) {width = 2 : i64} : (!mem.block<device>, i64) -> (f32, f32)
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (!mem.block<device>, i64) -> ()} : () -> ()
