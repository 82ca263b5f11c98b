// RUN: futmlir opt %s --pass-pipeline=soac-fuse,soac-unstream,soac-simplify
// RUN: futmlir opt %s --pass-pipeline=soac-fuse,soac-unstream,soac-simplify | futmlir opt -

// soac-fuse makes one stream_seq of the scan and the reduction of its
// result (thesis Fig. 55: a reduction needs whole prefixes; a map would
// be the scan's post-lambda instead); soac-unstream takes the whole
// input as one chunk, and soac-simplify removes what only mattered
// between chunks (the carry 0 added to each prefix, the last row of the
// chunk): the scan and the reduction (a redomap of the identity) again,
// the parallelism recovered.
// CHECK-LABEL: sym_name = "scan_reduce"
// CHECK-NOT: soac.stream_seq
// CHECK-NOT: soac.if
// CHECK: = soac.scan(%0, %
// CHECK: = soac.redomap(%0, %
// CHECK: kind = "mul"
// CHECK: soac.return
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %ps = "soac.scan"(%n, %zero, %xs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %r = "soac.reduce"(%n, %one, %ps) ({
  ^bb0(%x: i32, %y: i32):
    %z = "soac.binop"(%x, %y) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> i32
  "soac.return"(%r) : (i32) -> ()
}) {sym_name = "scan_reduce", function_type = (i64, !fut.array<[?]i32>) -> i32} : () -> ()

// A stream inside a map stays a stream (it is better run sequentially
// there) unless `nested` is set.
// CHECK-LABEL: sym_name = "in_map"
// CHECK: soac.map(
// CHECK: soac.stream_seq(
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %r = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]i32>):
    %s:2 = "soac.stream_seq"(%m, %zero, %xs) ({
    ^bb0(%c: i64, %acc: i32, %chunk: !fut.array<[%c]i32>):
      %t = "soac.reduce"(%c, %zero, %chunk) ({
      ^bb0(%a: i32, %b: i32):
        %d = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
        "soac.yield"(%d) : (i32) -> ()
      }) : (i64, i32, !fut.array<[%c]i32>) -> i32
      %acc2 = "soac.binop"(%acc, %t) {kind = "add"} : (i32, i32) -> i32
      "soac.yield"(%acc2, %chunk) : (i32, !fut.array<[%c]i32>) -> ()
    }) {num_accs = 1 : i64} : (i64, i32, !fut.array<[%m]i32>) -> (i32, !fut.array<[%m]i32>)
    "soac.yield"(%s#0) : (i32) -> ()
  }) : (i64, !fut.array<[%n][%m]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%r) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "in_map", function_type = (i64, i64, !fut.array<[?][?]i32>) -> !fut.array<[?]i32>} : () -> ()
