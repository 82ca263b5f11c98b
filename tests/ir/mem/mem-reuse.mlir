// RUN: futmlir opt %s --pass-pipeline=mem-reuse,ir-dce --split-input-file
// RUN: futmlir opt %s --pass-pipeline=mem-reuse,ir-dce --split-input-file | futmlir opt - --split-input-file

// A chain of scans: %c takes %a's block (a is dead once b is made), the
// reversal takes %b's, %d takes %a's block again. The allocations that
// went leave no byte computation behind.
// CHECK-LABEL: sym_name = "chain"
// CHECK: %5 = mem.alloc(%4) {space = "device"}
// CHECK: mem.bind(%5, %6)
// CHECK: %14 = mem.alloc(%13) {space = "device"}
// CHECK: mem.bind(%14, %15)
// CHECK-NOT: mem.alloc
// CHECK-NOT: value = 4 : i64
// CHECK: mem.bind(%5, %21)
// CHECK-NOT: mem.alloc
// CHECK: mem.bind(%14, %27)
// CHECK-NOT: mem.alloc
// CHECK: mem.bind(%5, %33)
// CHECK-NEXT: soac.return(%33)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %k1 = "soac.constant"() {value = 4 : i64} : () -> i64
  %s1 = "soac.binop"(%k1, %n) {kind = "mul"} : (i64, i64) -> i64
  %m1 = "mem.alloc"(%s1) {space = "device"} : (i64) -> !mem.block<device>
  %a = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%p: f32, %q: f32):
    %r = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%r) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> !fut.array<[%n]f32>
  "mem.bind"(%m1, %a) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %k2 = "soac.constant"() {value = 4 : i64} : () -> i64
  %s2 = "soac.binop"(%k2, %n) {kind = "mul"} : (i64, i64) -> i64
  %m2 = "mem.alloc"(%s2) {space = "device"} : (i64) -> !mem.block<device>
  %b = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%a, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%p: f32, %q: f32):
    %r = "soac.binop"(%p, %q) {kind = "mul"} : (f32, f32) -> f32
    "segop.yield"(%r) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> !fut.array<[%n]f32>
  "mem.bind"(%m2, %b) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %k3 = "soac.constant"() {value = 4 : i64} : () -> i64
  %s3 = "soac.binop"(%n, %k3) {kind = "mul"} : (i64, i64) -> i64
  %m3 = "mem.alloc"(%s3) {space = "device"} : (i64) -> !mem.block<device>
  %c = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%b, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%p: f32, %q: f32):
    %r = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%r) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> !fut.array<[%n]f32>
  "mem.bind"(%m3, %c) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %k4 = "soac.constant"() {value = 4 : i64} : () -> i64
  %s4 = "soac.binop"(%k4, %n) {kind = "mul"} : (i64, i64) -> i64
  %m4 = "mem.alloc"(%s4) {space = "device"} : (i64) -> !mem.block<device>
  %rev = "segop.segmap"(%n) ({
  ^bb0(%i: i64):
    %one = "soac.constant"() {value = 1 : i64} : () -> i64
    %last = "soac.binop"(%n, %one) {kind = "sub"} : (i64, i64) -> i64
    %j = "soac.binop"(%last, %i) {kind = "sub"} : (i64, i64) -> i64
    %x = "soac.index"(%c, %j) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
  "mem.bind"(%m4, %rev) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %k5 = "soac.constant"() {value = 4 : i64} : () -> i64
  %s5 = "soac.binop"(%k5, %n) {kind = "mul"} : (i64, i64) -> i64
  %m5 = "mem.alloc"(%s5) {space = "device"} : (i64) -> !mem.block<device>
  %d = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%rev, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x) : (f32) -> ()
  }, {
  ^bb0(%p: f32, %q: f32):
    %r = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%r) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> !fut.array<[%n]f32>
  "mem.bind"(%m5, %d) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  "soac.return"(%d) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "chain", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()

// -----

// %b may not take %a's block: the op making %b reads %a. %c's size
// differs. %d takes %a's block (dead once %b is made), not %b's: %d is
// made from %v, a view of %b. %f (48 bytes) fits in %e's 64 once %e is
// dead. %g takes %b's block (dead after %d). %h takes none: %d, %f and
// %w (a view of %g) are returned, so their blocks never die.
// CHECK-LABEL: sym_name = "kept"
// CHECK: %6 = mem.alloc(%5)
// CHECK-NEXT: %7 = soac.copy(%2)
// CHECK-NEXT: mem.bind(%6, %7)
// CHECK-NEXT: %8 = mem.alloc(%5)
// CHECK-NEXT: %9 = soac.copy(%7)
// CHECK-NEXT: mem.bind(%8, %9)
// CHECK: %14 = mem.alloc(%13)
// CHECK: mem.bind(%14, %15)
// CHECK-NEXT: %16 = soac.copy(%12)
// CHECK-NEXT: mem.bind(%6, %16)
// CHECK: %18 = mem.alloc(%17)
// CHECK: mem.bind(%18, %20)
// CHECK-NEXT: soac.constant() {value = 6 : i64}
// CHECK-NEXT: %22 = soac.replicate(
// CHECK-NEXT: mem.bind(%18, %22)
// CHECK-NEXT: %23 = soac.copy(%2)
// CHECK-NEXT: mem.bind(%8, %23)
// CHECK-NEXT: %24 = soac.slice(%23,
// CHECK-NEXT: %25 = mem.alloc(%5)
// CHECK-NEXT: %26 = soac.copy(%2)
// CHECK-NEXT: mem.bind(%25, %26)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xs: !fut.array<[%n]f32>, %x: f64):
  %k = "soac.constant"() {value = 4 : i64} : () -> i64
  %s = "soac.binop"(%k, %n) {kind = "mul"} : (i64, i64) -> i64
  %ma = "mem.alloc"(%s) {space = "device"} : (i64) -> !mem.block<device>
  %a = "soac.copy"(%xs) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%ma, %a) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %mb = "mem.alloc"(%s) {space = "device"} : (i64) -> !mem.block<device>
  %b = "soac.copy"(%a) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%mb, %b) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %v = "soac.slice"(%b, %zero, %n, %one) : (!fut.array<[%n]f32>, i64, i64, i64) -> !fut.array<[%n]f32>
  %sm = "soac.binop"(%k, %m) {kind = "mul"} : (i64, i64) -> i64
  %mc = "mem.alloc"(%sm) {space = "device"} : (i64) -> !mem.block<device>
  %c = "soac.iota"(%m) : (i64) -> !fut.array<[%m]i64>
  "mem.bind"(%mc, %c) : (!mem.block<device>, !fut.array<[%m]i64>) -> ()
  %md = "mem.alloc"(%s) {space = "device"} : (i64) -> !mem.block<device>
  %d = "soac.copy"(%v) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%md, %d) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %b64 = "soac.constant"() {value = 64 : i64} : () -> i64
  %me = "mem.alloc"(%b64) {space = "device"} : (i64) -> !mem.block<device>
  %eight = "soac.constant"() {value = 8 : i64} : () -> i64
  %e = "soac.replicate"(%eight, %x) : (i64, f64) -> !fut.array<[8]f64>
  "mem.bind"(%me, %e) : (!mem.block<device>, !fut.array<[8]f64>) -> ()
  %b48 = "soac.constant"() {value = 48 : i64} : () -> i64
  %mf = "mem.alloc"(%b48) {space = "device"} : (i64) -> !mem.block<device>
  %six = "soac.constant"() {value = 6 : i64} : () -> i64
  %f = "soac.replicate"(%six, %x) : (i64, f64) -> !fut.array<[6]f64>
  "mem.bind"(%mf, %f) : (!mem.block<device>, !fut.array<[6]f64>) -> ()
  %mg = "mem.alloc"(%s) {space = "device"} : (i64) -> !mem.block<device>
  %g = "soac.copy"(%xs) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%mg, %g) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %w = "soac.slice"(%g, %zero, %n, %one) : (!fut.array<[%n]f32>, i64, i64, i64) -> !fut.array<[%n]f32>
  %mh = "mem.alloc"(%s) {space = "device"} : (i64) -> !mem.block<device>
  %h = "soac.copy"(%xs) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%mh, %h) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  "soac.return"(%d, %c, %f, %w, %h) : (!fut.array<[%n]f32>, !fut.array<[%m]i64>, !fut.array<[6]f64>, !fut.array<[%n]f32>, !fut.array<[%n]f32>) -> ()
}) {sym_name = "kept", function_type = (i64, i64, !fut.array<[?]f32>, f64) -> (!fut.array<[?]f32>, !fut.array<[?]i64>, !fut.array<[6]f64>, !fut.array<[?]f32>, !fut.array<[?]f32>)} : () -> ()

// -----

// One segscan makes %s (never read) and %t. %s takes %a's block (dead
// once %b is made); %t may not take it too: %s holds it from the segscan
// on, though nothing reads %s after.
// CHECK-LABEL: sym_name = "unread_result"
// CHECK: %5 = mem.alloc(%4) {space = "device"}
// CHECK: mem.bind(%5, %6)
// CHECK: %9 = mem.alloc(%4) {space = "device"}
// CHECK: mem.bind(%5, %10#0)
// CHECK-NEXT: mem.bind(%9, %10#1)
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %k = "soac.constant"() {value = 4 : i64} : () -> i64
  %sz = "soac.binop"(%k, %n) {kind = "mul"} : (i64, i64) -> i64
  %ma = "mem.alloc"(%sz) {space = "device"} : (i64) -> !mem.block<device>
  %a = "soac.copy"(%xs) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%ma, %a) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %mb = "mem.alloc"(%sz) {space = "device"} : (i64) -> !mem.block<device>
  %b = "soac.copy"(%a) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  "mem.bind"(%mb, %b) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  %ms = "mem.alloc"(%sz) {space = "device"} : (i64) -> !mem.block<device>
  %mt = "mem.alloc"(%sz) {space = "device"} : (i64) -> !mem.block<device>
  %s, %t = "segop.segscan"(%n, %zero) ({
  ^bb0(%i: i64):
    %x = "soac.index"(%b, %i) : (!fut.array<[%n]f32>, i64) -> f32
    "segop.yield"(%x, %x) : (f32, f32) -> ()
  }, {
  ^bb0(%p: f32, %q: f32):
    %r = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
    "segop.yield"(%r) : (f32) -> ()
  }) {level = "thread"} : (i64, f32) -> (!fut.array<[%n]f32>, !fut.array<[%n]f32>)
  "mem.bind"(%ms, %s) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  "mem.bind"(%mt, %t) : (!mem.block<device>, !fut.array<[%n]f32>) -> ()
  "soac.return"(%t) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "unread_result", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
