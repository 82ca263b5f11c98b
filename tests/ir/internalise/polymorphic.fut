-- Polymorphic functions are inlined at each use, instantiated at the
-- types of the call (here i32 and f64); no polymorphic soac.func is made.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "main", function_type = (i32, f64) -> (i32, f64, !fut.array<[2]i32>, !fut.array<[2]f64>), entry
-- CHECK: soac.replicate(%2, %0) : (i64, i32) -> [2]i32
-- CHECK: soac.index(%5, %4) : ([2]i32, i64) -> i32
-- CHECK: soac.replicate(%2, %1) : (i64, f64) -> [2]f64
-- CHECK: soac.index(%8, %4) : ([2]f64, i64) -> f64
-- CHECK-NOT: soac.assert
-- CHECK-NOT: sym_name

def pair 'a (x: a) (y: a): [2]a = [x, y]

def last 't [n] (xs: [n]t): t = xs[n - 1]

entry main (x: i32) (y: f64): (i32, f64, [2]i32, [2]f64) =
  (last (pair x x), last (pair y y), pair x 1, pair y 1)
