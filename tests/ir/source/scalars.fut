-- Operators and numeric-module functions that are one scalar op become
-- source.binop/unop/cmpop with the kinds of the soac dialect; the others
-- (conversions, signed `//`) are calls of the built-in by name, and the
-- members the prelude writes in Futhark (`f32.isnan`, the constant
-- `f32.pi`, given to the numeric-module functor as `f32.arg.pi`) calls of
-- the prelude's function. `&&` evaluates its right operand
-- only when needed. Ranges and `assert` have ops of their own.
-- RUN: futmlir opt %s --emit=source
-- CHECK-LABEL: sym_name = "main"
-- CHECK-NEXT: ^bb0(%0: f32, %1: f32, %2: i32, %3: i64):
-- CHECK-NEXT: %4 = source.binop(%0, %1) {kind = "mul"} : (f32, f32) -> f32
-- CHECK-NEXT: %5 = source.unop(%4) {kind = "sqrt"} : (f32) -> f32
-- CHECK-NEXT: %6 = source.binop(%0, %1) {kind = "atan2"} : (f32, f32) -> f32
-- CHECK-NEXT: %7 = source.binop(%5, %6) {kind = "add"} : (f32, f32) -> f32
-- CHECK-NEXT: %8 = source.apply() {callee = @f32.impl.arg.pi} : () -> f32
-- CHECK-NEXT: %9 = source.binop(%7, %8) {kind = "max"} : (f32, f32) -> f32
-- CHECK-NEXT: %10 = source.cmpop(%0, %1) {kind = "lt"} : (f32, f32) -> bool
-- CHECK-NEXT: %11 = source.if(%10) ({
-- CHECK-NEXT: %12 = source.binop(%0, %1) {kind = "div"} : (f32, f32) -> f32
-- CHECK-NEXT: %13 = source.apply(%12) {callee = @f32.impl.isnan} : (f32) -> bool
-- CHECK: %14 = source.constant() {value = false} : () -> bool
-- CHECK: %16 = source.apply(%2, %15) {callee = @"//"} : (i32, i32) -> i32
-- CHECK: %18 = source.binop(%2, %17) {kind = "mod"} : (i32, i32) -> i32
-- CHECK: %20 = source.apply(%0) {callee = @i32.f32} : (f32) -> i32
-- CHECK: source.assert(%22) {message = "Assertion is false: (n > 0)"} : (bool) -> ()
-- CHECK: %24 = source.range(%23, %3) {kind = "up_to_exclusive"} : (i64, i64) -> [%3]i64
-- CHECK-NEXT: %25 = source.unop(%0) {kind = "neg"} : (f32) -> f32
entry main (x: f32) (y: f32) (i: i32) (n: i64): (f32, f32, bool, i32, i32, []i64, f32) =
  let a = f32.sqrt (x * y) + f32.atan2 x y
  let b = f32.max a f32.pi
  let c = x < y && f32.isnan (x / y)
  let d = i // 2 + i % 3
  let e = i32.f32 x
  in (a, b, c, d, e, assert (n > 0) (0..<n), -x)
