-- Scalars are unboxed: arithmetic, comparisons, conversions and literals
-- become soac.binop/cmpop/unop/convop/constant; integer division checks
-- its divisor; `&&` evaluates its right operand only when needed.
-- RUN: futmlir opt %s
-- CHECK-LABEL: sym_name = "arith", function_type = (i32, i32) -> i32, entry
-- CHECK-NEXT: ^bb0(%0: i32, %1: i32):
-- CHECK-NEXT: %2 = soac.binop(%0, %1) {kind = "add"} : (i32, i32) -> i32
-- CHECK: soac.binop(%2, %3) {kind = "mul"}
-- CHECK: soac.unop(%4) {kind = "neg"} : (i32) -> i32
-- CHECK-LABEL: sym_name = "division"
-- CHECK: soac.cmpop(%7, %8) {kind = "ne"}
-- CHECK: message = "division by zero (
-- CHECK-SAME: scalars.fut:32:49)"
-- CHECK: {kind = "div"}
-- CHECK: {kind = "rem"}
-- CHECK-LABEL: sym_name = "compare"
-- CHECK: soac.cmpop(%13, %14) {kind = "lt"} : (f32, f32) -> bool
-- CHECK: soac.if(%15)
-- CHECK: soac.constant() {value = false}
-- CHECK-LABEL: sym_name = "convert"
-- CHECK: {kind = "sitofp"} : (i32) -> f64
-- CHECK: {kind = "sqrt"} : (f64) -> f64
-- CHECK: {kind = "fptosi"} : (f64) -> i8
-- CHECK: {kind = "sext"} : (i8) -> i64
-- CHECK-LABEL: sym_name = "literals"
-- CHECK: soac.constant() {value = -128 : i8} : () -> i8
-- CHECK: soac.constant() {value = 255 : u8} : () -> u8
-- CHECK: soac.constant() {value = 1.5 : f32} : () -> f32
-- CHECK: soac.constant() {value = true} : () -> bool
entry arith (x: i32) (y: i32): i32 = -((x + y) * 2)

entry division (x: i32) (y: i32): (i32, i32) = (x / y, x %% y)

entry compare (x: f32) (y: f32): bool = x < y && y < 2 * x

entry convert (x: i32): i64 = i64.i8 (i8.f64 (f64.sqrt (f64.i32 x)))

entry literals: (i8, u8, f32, bool) = (-128i8, 255u8, 1.5f32, true)
