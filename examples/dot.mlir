// A dot product at the soac level: reduce (+) 0 (map2 (*) xs ys), as the
// frontend will produce it, with a common subexpression and dead code
// left in for ir-cse and ir-dce to remove.
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>, %ys: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %zero2 = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %prods = "soac.map"(%n, %xs, %ys) ({
  ^bb0(%x: f32, %y: f32):
    %p = "soac.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
    %unused = "soac.binop"(%p, %p) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%p) : (f32) -> ()
  }) : (i64, !fut.array<[%n]f32>, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %squares = "soac.map"(%n, %xs) ({
  ^bb0(%x: f32):
    %q = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%q) : (f32) -> ()
  }) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
  %sum = "soac.reduce"(%n, %zero2, %prods) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }) {commutative} : (i64, f32, !fut.array<[%n]f32>) -> f32
  "soac.return"(%sum) : (f32) -> ()
}) {sym_name = "dot", function_type = (i64, !fut.array<[?]f32>, !fut.array<[?]f32>) -> f32} : () -> ()
