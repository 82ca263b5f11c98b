-- Lambdas capture outer values; a function type is uncurried, so
-- `\x -> \y -> e` takes both arguments. Sections and function names used
-- as values are lambdas. A local function with a size parameter reads it
-- with source.size; a polymorphic local function is emitted at each use.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i32, %1: [?]i32):
-- CHECK-NEXT: %2 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%3: i32, %4: i32):
-- CHECK-NEXT: %5 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%6: i32):
-- CHECK-NEXT: source.binop(%3, %6) {kind = "mul"}
-- CHECK: %8 = source.apply(%5, %4) : ((i32) -> i32, i32) -> i32
-- CHECK: }) : () -> ((i32, i32) -> i32)
-- CHECK-NEXT: %9 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%10: [?]i32):
-- CHECK-NEXT: %11 = source.size(%10) {dim = 0 : i64} : ([?]i32) -> i64
-- CHECK: source.binop(%13, %0) {kind = "add"}
-- CHECK: source.soac_call(%12, %10) {soac = "map"} : ((i32) -> i32, [?]i32) -> [%11]i32
-- CHECK: }) : () -> (([?]i32) -> [?]i32)
-- CHECK-NEXT: source.apply(%2, %0, %0) : ((i32, i32) -> i32, i32, i32) -> i32
-- CHECK: %19 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%20: i32):
-- CHECK-NEXT: source.apply(%2, %18, %20) : ((i32, i32) -> i32, i32, i32) -> i32
-- CHECK-LABEL: sym_name = "poly_local"
-- CHECK: }) : () -> (((bool) -> bool, bool) -> bool)
-- CHECK: }) : () -> (((f32) -> f32, f32) -> f32)
-- CHECK-NOT: tyvar

entry main (k: i32) (xs: []i32): (i32, []i32, []i32) =
  let mul = \a -> \b -> a * b
  let shift [n] (ys: [n]i32): [n]i32 = map (\y -> y + k) ys
  in (mul k k, shift xs, map (mul 2) xs)

entry poly_local (b: bool) (x: f32): (bool, f32) =
  let twice 't (f: t -> t) (v: t): t = f (f v)
  in (twice (\c -> !c) b, twice (* 2) x)
