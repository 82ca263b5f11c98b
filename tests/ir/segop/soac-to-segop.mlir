// RUN: futmlir opt %s --pass-pipeline=soac-to-segop
// RUN: futmlir opt %s --pass-pipeline=soac-to-segop | futmlir opt -

// Kernel extraction. A perfect map nest is one segmap over both
// dimensions, reading its rows with soac.index. A map whose lambda is
// only a reduction over a size from outside is a segmented segred over
// two dimensions (thesis rule G5), keeping `commutative`. Top-level
// reduce and scan are segred and segscan over one dimension. The last map
// computes a scalar then maps over an array from outside: distributed
// (rule G4), a segmap of the scalars and a segmap over both dimensions.
// CHECK-LABEL: sym_name = "kernels"
// CHECK: %5 = segop.segmap(%0, %1) {level = "thread"}
// CHECK-NEXT: ^bb0(%6: i64, %7: i64):
// CHECK-NEXT: %8 = soac.index(%2, %6)
// CHECK-NEXT: %9 = soac.index(%8, %7)
// CHECK-NEXT: kind = "mul"
// CHECK-NEXT: segop.yield(%10)
// CHECK-NEXT: }) : (i64, i64) -> [%0][%1]f32
// CHECK: %11 = segop.segred(%0, %1, %4) {level = "thread", commutative}
// CHECK: }) : (i64, i64, f32) -> [%0]f32
// CHECK: %19 = segop.segred(%0, %4) {level = "thread"}
// CHECK: %25 = segop.segscan(%0, %4) {level = "thread"}
// CHECK: %31 = segop.segmap(%0) {level = "thread"}
// CHECK: kind = "mul"
// CHECK: %36 = segop.segmap(%0, %0) {level = "thread"}
// CHECK-NEXT: ^bb0(%37: i64, %38: i64):
// CHECK-NEXT: %39 = soac.index(%31, %37)
// CHECK-NEXT: %40 = soac.index(%25, %38)
// CHECK: soac.return(%5, %19, %25, %36)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>, %k: f32):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %ys = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]f32>):
    %zs = "soac.map"(%m, %xs) ({
    ^bb0(%x: f32):
      %y = "soac.binop"(%x, %k) {kind = "mul"} : (f32, f32) -> f32
      "soac.yield"(%y) : (f32) -> ()
    }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
    "soac.yield"(%zs) : (!fut.array<[%m]f32>) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> !fut.array<[%n][%m]f32>
  %sums = "soac.map"(%n, %ys) ({
  ^bb0(%r: !fut.array<[%m]f32>):
    %s = "soac.reduce"(%m, %zero, %r) ({
    ^bb0(%a: f32, %b: f32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%c) : (f32) -> ()
    }) {commutative} : (i64, f32, !fut.array<[%m]f32>) -> f32
    "soac.yield"(%s) : (f32) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> !fut.array<[%n]f32>
  %total = "soac.reduce"(%n, %zero, %sums) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> f32
  %ps = "soac.scan"(%n, %zero, %sums) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %mx = "soac.map"(%n, %ps) ({
  ^bb0(%p: f32):
    %two = "soac.constant"() {value = 2.0 : f32} : () -> f32
    %q = "soac.binop"(%p, %two) {kind = "mul"} : (f32, f32) -> f32
    %inner = "soac.map"(%n, %ps) ({
    ^bb0(%t: f32):
      %u = "soac.binop"(%t, %q) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%u) : (f32) -> ()
    }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
    "soac.yield"(%inner) : (!fut.array<[%n]f32>) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n][%n]f32>
  "soac.return"(%ys, %total, %ps, %mx) : (!fut.array<[%n][%m]f32>, f32, !fut.array<[%n]f32>, !fut.array<[%n][%n]f32>) -> ()
}) {sym_name = "kernels", function_type = (i64, i64, !fut.array<[?][?]f32>, f32) -> (!fut.array<[?][?]f32>, f32, !fut.array<[?]f32>, !fut.array<[?][?]f32>)} : () -> ()

// Map distribution (rule G4): the lambda reduces its row, then maps over
// it with the sum. It becomes two maps, each a perfect nest: a segmented
// segred over (n, m) giving the sums, and a segmap over (n, m) reading
// the row and its sum.
// CHECK-LABEL: sym_name = "distribute"
// CHECK: %46 = segop.segred(%42, %43, %45) {level = "thread"}
// CHECK: }) : (i64, i64, f32) -> [%42]f32
// CHECK-NEXT: %54 = segop.segmap(%42, %43) {level = "thread"}
// CHECK-NEXT: ^bb0(%55: i64, %56: i64):
// CHECK-NEXT: %57 = soac.index(%44, %55)
// CHECK-NEXT: %58 = soac.index(%46, %55)
// CHECK-NEXT: %59 = soac.index(%57, %56)
// CHECK-NEXT: %60 = soac.binop(%59, %58) {kind = "div"}
// CHECK: soac.return(%54, %46)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %xss: !fut.array<[%n][%m]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %ys, %ss = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]f32>):
    %s = "soac.reduce"(%m, %zero, %xs) ({
    ^bb0(%a: f32, %b: f32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
      "soac.yield"(%c) : (f32) -> ()
    }) : (i64, f32, !fut.array<[%m]f32>) -> f32
    %zs = "soac.map"(%m, %xs) ({
    ^bb0(%x: f32):
      %y = "soac.binop"(%x, %s) {kind = "div"} : (f32, f32) -> f32
      "soac.yield"(%y) : (f32) -> ()
    }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
    "soac.yield"(%zs, %s) : (!fut.array<[%m]f32>, f32) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> (!fut.array<[%n][%m]f32>, !fut.array<[%n]f32>)
  "soac.return"(%ys, %ss) : (!fut.array<[%n][%m]f32>, !fut.array<[%n]f32>) -> ()
}) {sym_name = "distribute", function_type = (i64, i64, !fut.array<[?][?]f32>) -> (!fut.array<[?][?]f32>, !fut.array<[?]f32>)} : () -> ()

// An inner SOAC over a size computed in the lambda has no regular
// parallelism to flatten: the map is one segmap over its own dimension,
// and each thread runs the inner map sequentially.
// CHECK-LABEL: sym_name = "irregular"
// CHECK: segop.segmap(
// CHECK: soac.iota(
// CHECK: soac.map(
// CHECK: segop.yield(
"soac.func"() ({
^bb0(%n: i64, %ks: !fut.array<[%n]i64>):
  %zero = "soac.constant"() {value = 0 : i64} : () -> i64
  %r = "soac.map"(%n, %ks) ({
  ^bb0(%k: i64):
    %is = "soac.iota"(%k) : (i64) -> !fut.array<[%k]i64>
    %s = "soac.reduce"(%k, %zero, %is) ({
    ^bb0(%a: i64, %b: i64):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
      "soac.yield"(%c) : (i64) -> ()
    }) : (i64, i64, !fut.array<[%k]i64>) -> i64
    %m = "soac.map"(%k, %is) ({
    ^bb0(%i: i64):
      %j = "soac.binop"(%i, %s) {kind = "mul"} : (i64, i64) -> i64
      "soac.yield"(%j) : (i64) -> ()
    }) : (i64, !fut.array<[%k]i64>) -> !fut.array<[%k]i64>
    %t = "soac.reduce"(%k, %zero, %m) ({
    ^bb0(%a: i64, %b: i64):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
      "soac.yield"(%c) : (i64) -> ()
    }) : (i64, i64, !fut.array<[%k]i64>) -> i64
    "soac.yield"(%t) : (i64) -> ()
  }) : (i64, !fut.array<[%n]i64>) -> !fut.array<[%n]i64>
  "soac.return"(%r) : (!fut.array<[%n]i64>) -> ()
}) {sym_name = "irregular", function_type = (i64, !fut.array<[?]i64>) -> !fut.array<[?]i64>} : () -> ()

// Map-loop interchange (G7): the loop goes around maps of its body
// (distributed: a segmap over both dimensions, then one whose threads
// reduce, the neutral element being each row's own); its merge arrays
// start from the map's input and from a replicate of a value from
// outside the map.
// CHECK-LABEL: sym_name = "interchange"
// CHECK: %84 = soac.replicate(%79, %83) : (i64, f32) -> [%79]f32
// CHECK-NEXT: %85:2 = soac.loop(%81, %82, %84) {form = "for"}
// CHECK-NEXT: ^bb0(%86: i64, %87: [%79][%80]f32, %88: [%79]f32):
// CHECK-NEXT: %89 = segop.segmap(%79, %80) {level = "thread"}
// CHECK: %95 = segop.segmap(%79) {level = "thread"}
// CHECK: soac.reduce(%80, %97, %98)
// CHECK: soac.yield(%89, %95)
// CHECK: soac.return(%85#0, %85#1)
"soac.func"() ({
^bb0(%n: i64, %m: i64, %k: i64, %xss: !fut.array<[%n][%m]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %ys, %ss = "soac.map"(%n, %xss) ({
  ^bb0(%xs: !fut.array<[%m]f32>):
    %r:2 = "soac.loop"(%k, %xs, %zero) ({
    ^bb0(%i: i64, %as: !fut.array<[%m]f32>, %t: f32):
      %bs = "soac.map"(%m, %as) ({
      ^bb0(%a: f32):
        %b = "soac.binop"(%a, %a) {kind = "mul"} : (f32, f32) -> f32
        "soac.yield"(%b) : (f32) -> ()
      }) : (i64, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
      %u = "soac.reduce"(%m, %t, %bs) ({
      ^bb0(%p: f32, %q: f32):
        %c = "soac.binop"(%p, %q) {kind = "add"} : (f32, f32) -> f32
        "soac.yield"(%c) : (f32) -> ()
      }) : (i64, f32, !fut.array<[%m]f32>) -> f32
      "soac.yield"(%bs, %u) : (!fut.array<[%m]f32>, f32) -> ()
    }) {form = "for"} : (i64, !fut.array<[%m]f32>, f32) -> (!fut.array<[%m]f32>, f32)
    "soac.yield"(%r#0, %r#1) : (!fut.array<[%m]f32>, f32) -> ()
  }) : (i64, !fut.array<[%n][%m]f32>) -> (!fut.array<[%n][%m]f32>, !fut.array<[%n]f32>)
  "soac.return"(%ys, %ss) : (!fut.array<[%n][%m]f32>, !fut.array<[%n]f32>) -> ()
}) {sym_name = "interchange", function_type = (i64, i64, i64, !fut.array<[?][?]f32>) -> (!fut.array<[?][?]f32>, !fut.array<[?]f32>)} : () -> ()
