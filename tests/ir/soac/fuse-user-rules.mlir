// RUN: futmlir opt %s --rules %S/Inputs/no-scan-fusion.rules --pass-pipeline=soac-fuse{rules=maps-only:2}

// A user's fusion rule set changes the result: with only `map ∘ map`,
// the two maps fuse and the scan stays apart (the built-in rules would
// make one scanomap of all three).
// CHECK-LABEL: sym_name = "f"
// CHECK: soac.map(%0, %1)
// CHECK: {kind = "mul"}
// CHECK-NEXT: {kind = "add"}
// CHECK: soac.scan(%0,
// CHECK-NOT: soac.scanomap
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %zs = "soac.map"(%n, %ys) ({
  ^bb0(%y: i32):
    %z = "soac.binop"(%y, %two) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%z) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %ps = "soac.scan"(%n, %zero, %zs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  "soac.return"(%ps) : (!fut.array<[%n]i32>) -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i32>) -> !fut.array<[?]i32>} : () -> ()
