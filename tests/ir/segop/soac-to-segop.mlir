// RUN: futmlir opt %s --pass-pipeline=soac-to-segop
// RUN: futmlir opt %s --pass-pipeline=soac-to-segop | futmlir opt -

// Kernel extraction. A perfect map nest is one segmap over both
// dimensions, reading its rows with soac.index. A map whose lambda is
// only a reduction over a size from outside is a segmented segred over
// two dimensions (thesis rule G5), keeping `commutative`. Top-level
// reduce and scan are segred and segscan over one dimension. The last map
// computes a cheap scalar then maps over an array from outside: the
// scalar sinks into the inner map (Note [Sinking cheap code]), which
// leaves a perfect nest, one segmap over both dimensions that computes
// it for each element (a costly lambda is distributed: rule G4, below).
// CHECK-LABEL: sym_name = "kernels"
// CHECK-NEXT: ^bb0([[N:%[0-9]+]]: i64, [[M:%[0-9]+]]: i64, [[XSS:%[0-9]+]]: [
// CHECK-SAME: [[N]]][[[M]]]f32, {{%[0-9]+}}: f32):
// CHECK: [[YS:%[0-9]+]] = segop.segmap([[N]], [[M]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64):
// CHECK-NEXT: [[ROW:%[0-9]+]] = soac.index([[XSS]], [[I]])
// CHECK-NEXT: [[X:%[0-9]+]] = soac.index([[ROW]], [[J]])
// CHECK-NEXT: [[Y:%[0-9]+]] = soac.binop([[X]], {{%[0-9]+}}) {kind = "mul"}
// CHECK-NEXT: segop.yield([[Y]])
// CHECK-NEXT: }) : (i64, i64) -> [[[N]]][[[M]]]f32
// CHECK: {{%[0-9]+}} = segop.segred([[N]], [[M]], [[ZERO:%[0-9]+]]) {level = "thread", commutative}
// CHECK: }) : (i64, i64, f32) -> [[[N]]]f32
// CHECK: [[TOTAL:%[0-9]+]] = segop.segred([[N]], [[ZERO]]) {level = "thread"}
// CHECK: [[PS:%[0-9]+]] = segop.segscan([[N]], [[ZERO]]) {level = "thread"}
// CHECK-NOT: segop.segmap([[N]]) {level
// CHECK: [[OUTER:%[0-9]+]] = segop.segmap([[N]], [[N]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[I2:%[0-9]+]]: i64, [[J2:%[0-9]+]]: i64):
// CHECK-NEXT: [[P:%[0-9]+]] = soac.index([[PS]], [[I2]])
// CHECK-NEXT: {{%[0-9]+}} = soac.index([[PS]], [[J2]])
// CHECK: soac.binop([[P]], {{%[0-9]+}}) {kind = "mul"}
// CHECK: soac.return([[YS]], [[TOTAL]], [[PS]], [[OUTER]])
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
// CHECK-NEXT: ^bb0([[DN:%[0-9]+]]: i64, [[DM:%[0-9]+]]: i64, [[DXSS:%[0-9]+]]: [
// CHECK: [[DSUMS:%[0-9]+]] = segop.segred([[DN]], [[DM]], {{%[0-9]+}}) {level = "thread"}
// CHECK: }) : (i64, i64, f32) -> [[[DN]]]f32
// CHECK-NEXT: [[DYS:%[0-9]+]] = segop.segmap([[DN]], [[DM]]) {level = "thread"}
// CHECK-NEXT: ^bb0([[DI:%[0-9]+]]: i64, [[DJ:%[0-9]+]]: i64):
// CHECK-NEXT: [[DROW:%[0-9]+]] = soac.index([[DXSS]], [[DI]])
// CHECK-NEXT: [[DSUM:%[0-9]+]] = soac.index([[DSUMS]], [[DI]])
// CHECK-NEXT: [[DX:%[0-9]+]] = soac.index([[DROW]], [[DJ]])
// CHECK-NEXT: {{%[0-9]+}} = soac.binop([[DX]], [[DSUM]]) {kind = "div"}
// CHECK: soac.return([[DYS]], [[DSUMS]])
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
// CHECK-NEXT: ^bb0([[LN:%[0-9]+]]: i64, [[LM:%[0-9]+]]: i64, [[LK:%[0-9]+]]: i64, [[LXSS:%[0-9]+]]: [
// CHECK: [[ACC:%[0-9]+]] = soac.replicate([[LN]], {{%[0-9]+}}) : (i64, f32) -> [
// CHECK-SAME: [[LN]]]f32
// CHECK-NEXT: [[LOOP:%[0-9]+]]:2 = soac.loop([[LK]], [[LXSS]], [[ACC]]) {form = "for"}
// CHECK-NEXT: ^bb0({{%[0-9]+}}: i64, {{%[0-9]+}}: [[[LN]]][[[LM]]]f32, {{%[0-9]+}}: [[[LN]]]f32):
// CHECK-NEXT: [[BS:%[0-9]+]] = segop.segmap([[LN]], [[LM]]) {level = "thread"}
// CHECK: [[US:%[0-9]+]] = segop.segmap([[LN]]) {level = "thread"}
// CHECK: soac.reduce([[LM]], {{%[0-9]+}}, {{%[0-9]+}})
// CHECK: soac.yield([[BS]], [[US]])
// CHECK: soac.return([[LOOP]]#0, [[LOOP]]#1)
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
