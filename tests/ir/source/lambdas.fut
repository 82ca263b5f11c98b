-- Lambdas capture outer values; a function type is uncurried, so
-- `\x -> \y -> e` takes both arguments. Sections and function names used
-- as values are lambdas. A local function with a size parameter reads it
-- with source.size; a polymorphic local function is emitted at each use.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: i64, %1: i32, %2: [%0]i32):
-- CHECK-NEXT: %3 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%4: i32, %5: i32):
-- CHECK-NEXT: %6 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%7: i32):
-- CHECK-NEXT: source.binop(%4, %7) {kind = "mul"}
-- CHECK: %9 = source.apply(%6, %5) : ((i32) -> i32, i32) -> i32
-- CHECK: }) : () -> ((i32, i32) -> i32)
-- CHECK-NEXT: %10 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%11: [?]i32):
-- CHECK-NEXT: %12 = source.size(%11) {dim = 0 : i64} : ([?]i32) -> i64
-- CHECK: source.binop(%14, %1) {kind = "add"}
-- CHECK: source.soac_call(%13, %11) {soac = "map"} : ((i32) -> i32, [?]i32) -> [%12]i32
-- CHECK: }) : () -> (([?]i32) -> [?]i32)
-- CHECK-NEXT: source.apply(%3, %1, %1) : ((i32, i32) -> i32, i32, i32) -> i32
-- CHECK: %20 = source.lambda() ({
-- CHECK-NEXT: ^bb0(%21: i32):
-- CHECK-NEXT: source.apply(%3, %19, %21) : ((i32, i32) -> i32, i32, i32) -> i32
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
