// RUN: futmlir opt %s --split-input-file --verify-diagnostics

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.alloc' op result is a block in device memory, but attribute 'space' is "host"}}
  %m = "mem.alloc"(%n) {space = "host"} : (i64) -> !mem.block<device>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64):
  // expected-error @+1 {{'mem.alloc' op a thread's block is device memory, but attribute 'space' is "host"}}
  %m = "mem.alloc"(%n) {space = "host", thread} : (i64) -> !mem.block<host>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64) -> ()} : () -> ()

// -----

"imp.func"() ({
^bb0(%n: i64):
  // expected-error @+1 {{'mem.alloc' op a thread's block (attribute 'thread') outside kernel code (an imp.kernel or a device imp.func)}}
  %m = "mem.alloc"(%n) {space = "device", thread} : (i64) -> !mem.block<device>
  "mem.free"(%m) : (!mem.block<device>) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "f", function_type = (i64) -> ()} : () -> ()

// -----

"imp.kernel"() ({
^bb0(%n: i64, %c: i1):
  "imp.if"(%c) ({
    // expected-error @+1 {{'mem.alloc' op kernel code allocates only a thread's own blocks (attribute 'thread')}}
    %m = "mem.alloc"(%n) {space = "device"} : (i64) -> !mem.block<device>
    "imp.yield"() : () -> ()
  }, {
    "imp.yield"() : () -> ()
  }) : (i1) -> ()
  "imp.return"() : () -> ()
}) {sym_name = "k", function_type = (i64, i1) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.alloc' op the byte size (operand #0) must have type i64, found i32}}
  %m = "mem.alloc"(%i) {space = "device"} : (i32) -> !mem.block<device>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.free' op operand must be a memory block, found f32}}
  "mem.free"(%x) : (f32) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.expand' op attribute 'layout' must be one of "contiguous", "interleaved", found "tiled"}}
  %e = "mem.expand"(%n) {layout = "tiled"} : (i64) -> !mem.block<device>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.expand' op an expanded block is only bound to arrays of a segop's threads (mem.bind in a segop's body), but 'mem.bind' uses it}}
  %e = "mem.expand"(%n) {layout = "interleaved"} : (i64) -> !mem.block<device>
  %ys = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  "mem.bind"(%e, %ys) : (!mem.block<device>, !fut.array<[%n]i64>) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.expand' op expanded memory must be in device memory, found shared}}
  %e = "mem.expand"(%n) {layout = "contiguous"} : (i64) -> !mem.block<shared>
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.bind' op operand #1 must be the result of an op (a fresh array), not a block argument}}
  "mem.bind"(%b, %xs) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32, %i: i32, %b: !mem.block<device>, %xs: !fut.array<[%n]f32>):
  // expected-error @+1 {{'mem.bind' op operand #1 must be an array, found f32}}
  "mem.bind"(%b, %x) : (!mem.block<device>, f32) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "f", function_type = (i64, f32, i32, !mem.block<device>, !fut.array<[?]f32>) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %x: f32):
  %bytes = "soac.constant"() {value = 64 : i64} : () -> i64
  %b = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
  %ys = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  // expected-error @+1 {{'mem.bind' op the element offset (operand #2) must have type i64, found f32}}
  "mem.bind"(%b, %ys, %x) : (!mem.block<device>, !fut.array<[%n]i64>, f32) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "bad_offset", function_type = (i64, f32) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64):
  %bytes = "soac.constant"() {value = 64 : i64} : () -> i64
  %b = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
  %ys = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  // expected-error @+1 {{'mem.bind' op expects 2 operands (block, array) or 3 (block, array, offset), found 4}}
  "mem.bind"(%b, %ys, %n, %n) : (!mem.block<device>, !fut.array<[%n]i64>, i64, i64) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "too_many", function_type = (i64) -> ()} : () -> ()

// -----

"soac.func"() ({
^bb0(%n: i64, %i: i64, %xss: !fut.array<[%n][%n]f32>):
  %ys = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
  // expected-error @+1 {{'mem.place' op a row of a rank-2 array indexed 2 times has rank 0, but the placed array has rank 1}}
  "mem.place"(%xss, %i, %i, %ys) : (!fut.array<[%n][%n]f32>, i64, i64, !fut.array<[%n]i64>) -> ()
  "soac.return"() : () -> ()
}) {sym_name = "bad_place", function_type = (i64, i64, !fut.array<[?][?]f32>) -> ()} : () -> ()
