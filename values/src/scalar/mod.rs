//! The one scalar semantics of futmlir: the operators on primitive values,
//! the members of Futhark's numeric modules, and conversions between
//! primitive types. The reference interpreter (`futmlir_frontend::interp`),
//! the soac/segop interpreter (`futmlir_dialects::interp`) and constant
//! folding (`futmlir_passes::egraph::fold`) all compute with these
//! functions; each keeps only its own mapping from names (Futhark's
//! operators and prelude names, or the IR's op kinds) to them. The runtime
//! (the compiled code) is meant to agree (`imp_to_mlir` lowers the same ops
//! to the same semantics).
//!
//! Semantics (see Note [Integer semantics] and Note [Conversions]):
//! - integer `+ - * **` and negation wrap (two's complement), as do the
//!   bitwise operators;
//! - signed `/` and `%` round toward negative infinity (the quotient is
//!   floored, the remainder takes the sign of the divisor); `//` and `%%`
//!   truncate toward zero; unsigned division is the ordinary one; dividing
//!   by zero is an error, [`PrimError::DivisionByZero`];
//! - float `%` is C's `fmod` (the remainder takes the sign of the dividend);
//!   `min`/`max` return the other operand when one is NaN; `round` rounds
//!   half to even; `sgn` keeps ±0 and NaN; NaN is unordered (only `!=`
//!   holds);
//! - f32 and f64 are computed in their own precision; f16 arithmetic is
//!   computed in f32 (`fma`, `mad` and `min`/`max` in f64) and rounded back
//!   to half precision.
//!
//! - `int`: the operators on one generic fixed-width integer.
//! - `float`: [`FloatUn`], [`FloatBin`]: the functions of the float modules.
//! - `special`: Γ, ln Γ, erf, erfc.
//! - `convert`: conversions and bitcasts.
//!
//! Every operation takes and returns [`PrimValue`]s and fails with a
//! [`PrimError`] (never a panic) when the operands' types do not fit it.

use crate::f16::{f16_to_f32, f32_to_f16, f64_to_f16};
use crate::{PrimType, PrimValue};

// Note [Integer semantics]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Shifts take the shift amount as a value of the operand type. An amount in
// `0..bits` shifts as in C. Any other amount (negative, or at least the bit
// width) shifts every bit out: `<<` and `>>>` give 0, and `>>` gives 0 or -1
// (the sign fill). C leaves those cases undefined; this choice is the limit
// of shifting one bit at a time. `**` with a negative exponent is an error;
// `x ** 0` is 1 (also for x = 0).

/// The built-in binary operators on primitive values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `//`
    Quot,
    /// `%%`
    Rem,
    /// `**`
    Pow,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&&` (short-circuiting when written infix)
    LogAnd,
    /// `||`
    LogOr,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>` (arithmetic on signed types)
    Shr,
    /// `>>>` (logical)
    UShr,
}

impl BinOp {
    pub fn from_name(s: &str) -> Option<BinOp> {
        use BinOp::*;
        Some(match s.as_bytes() {
            b"+" => Add,
            b"-" => Sub,
            b"*" => Mul,
            b"/" => Div,
            b"%" => Mod,
            b"//" => Quot,
            b"%%" => Rem,
            b"**" => Pow,
            b"==" => Eq,
            b"!=" => Neq,
            b"<" => Lt,
            b"<=" => Le,
            b">" => Gt,
            b">=" => Ge,
            b"&&" => LogAnd,
            b"||" => LogOr,
            b"&" => BitAnd,
            b"|" => BitOr,
            b"^" => Xor,
            b"<<" => Shl,
            b">>" => Shr,
            b">>>" => UShr,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Quot => "//",
            Rem => "%%",
            Pow => "**",
            Eq => "==",
            Neq => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            LogAnd => "&&",
            LogOr => "||",
            BitAnd => "&",
            BitOr => "|",
            Xor => "^",
            Shl => "<<",
            Shr => ">>",
            UShr => ">>>",
        }
    }
}

/// The result of an operator: a value of the operand type or a bool.
enum OpResult<T> {
    V(T),
    B(bool),
}

/// A comparison operator (`Eq` to `Ge`) on two values of one type: `false`
/// is less than `true`, and floats compare as IEEE says (NaN is unordered,
/// so only `!=` holds). Any other operator gives `false`.
#[inline]
fn compare<T: PartialOrd>(op: BinOp, a: T, b: T) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Neq => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        _ => false,
    }
}

/// Why a scalar operation failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PrimError {
    DivisionByZero,
    NegativeExponent,
    /// Operands of the wrong types: the checker should have rejected it.
    Type,
}

impl PrimError {
    pub fn message(self, what: &str) -> String {
        match self {
            PrimError::DivisionByZero => "division by zero".to_string(),
            PrimError::NegativeExponent => "negative exponent in integer `**`".to_string(),
            PrimError::Type => format!("internal error: operand types do not fit `{what}`"),
        }
    }
}

pub type PResult = Result<PrimValue, PrimError>;

macro_rules! int_cases {
    ($a:expr, $b:expr, $x:ident, $y:ident, $V:ident => $e:expr, $other:expr) => {
        match ($a, $b) {
            (PrimValue::I8($x), PrimValue::I8($y)) => {
                #[allow(unused_imports)]
                use PrimValue::I8 as $V;
                $e
            }
            (PrimValue::I16($x), PrimValue::I16($y)) => {
                #[allow(unused_imports)]
                use PrimValue::I16 as $V;
                $e
            }
            (PrimValue::I32($x), PrimValue::I32($y)) => {
                #[allow(unused_imports)]
                use PrimValue::I32 as $V;
                $e
            }
            (PrimValue::I64($x), PrimValue::I64($y)) => {
                #[allow(unused_imports)]
                use PrimValue::I64 as $V;
                $e
            }
            (PrimValue::U8($x), PrimValue::U8($y)) => {
                #[allow(unused_imports)]
                use PrimValue::U8 as $V;
                $e
            }
            (PrimValue::U16($x), PrimValue::U16($y)) => {
                #[allow(unused_imports)]
                use PrimValue::U16 as $V;
                $e
            }
            (PrimValue::U32($x), PrimValue::U32($y)) => {
                #[allow(unused_imports)]
                use PrimValue::U32 as $V;
                $e
            }
            (PrimValue::U64($x), PrimValue::U64($y)) => {
                #[allow(unused_imports)]
                use PrimValue::U64 as $V;
                $e
            }
            _ => $other,
        }
    };
}

/// One integer value at a time: `$x` bound to the payload, `$V` to the
/// constructor.
macro_rules! int_case1 {
    ($a:expr, $x:ident, $V:ident => $e:expr, $other:expr) => {
        int_cases!($a, $a, $x, _unused, $V => $e, $other)
    };
}

mod convert;
mod float;
mod int;
mod special;

#[cfg(test)]
mod tests;

pub use convert::{
    as_f64, as_i128, bit_pattern, bitcast, convert, from_bit_pattern, from_bits, from_f64, from_i128, to_bits,
    with_signedness,
};
pub use float::{FloatBin, FloatUn};
pub use special::{erf, erfc, gamma, lgamma};

use float::Float;
use int::{int_binop, Int};

#[inline]
fn wrap<T>(r: OpResult<T>, f: impl FnOnce(T) -> PrimValue) -> PrimValue {
    match r {
        OpResult::V(v) => f(v),
        OpResult::B(b) => PrimValue::Bool(b),
    }
}

/// A binary operator on two values of the same primitive type.
#[inline(always)]
pub fn binop(op: BinOp, a: PrimValue, b: PrimValue) -> PResult {
    use PrimValue::*;
    match (a, b) {
        (I32(x), I32(y)) => Ok(wrap(int_binop(op, x, y)?, I32)),
        (I64(x), I64(y)) => Ok(wrap(int_binop(op, x, y)?, I64)),
        (F32(x), F32(y)) => Ok(wrap(x.binop(op, y)?, F32)),
        (F64(x), F64(y)) => Ok(wrap(x.binop(op, y)?, F64)),
        (F16(x), F16(y)) => Ok(wrap(f16_to_f32(x).binop(op, f16_to_f32(y))?, |v| F16(f32_to_f16(v)))),
        (Bool(x), Bool(y)) => Ok(Bool(match op {
            BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => compare(op, x, y),
            BinOp::LogAnd | BinOp::BitAnd => x & y,
            BinOp::LogOr | BinOp::BitOr => x | y,
            BinOp::Xor => x ^ y,
            _ => return Err(PrimError::Type),
        })),
        _ => int_cases!(a, b, x, y, V => Ok(wrap(int_binop(op, x, y)?, V)), Err(PrimError::Type)),
    }
}

/// Arithmetic negation (wrapping for integers).
pub fn neg(a: PrimValue) -> PResult {
    use PrimValue::*;
    match a {
        F16(x) => Ok(F16(x ^ 0x8000)),
        F32(x) => Ok(F32(-x)),
        F64(x) => Ok(F64(-x)),
        Bool(_) => Err(PrimError::Type),
        _ => int_case1!(a, x, V => Ok(V(x.wneg())), Err(PrimError::Type)),
    }
}

/// `!`: logical on bool, bitwise complement on integers.
pub fn not(a: PrimValue) -> PResult {
    match a {
        PrimValue::Bool(b) => Ok(PrimValue::Bool(!b)),
        _ => int_case1!(a, x, V => Ok(V(x.bnot())), Err(PrimError::Type)),
    }
}

pub fn abs(a: PrimValue) -> PResult {
    use PrimValue::*;
    match a {
        F16(x) => Ok(F16(x & 0x7fff)),
        F32(x) => Ok(F32(x.abs())),
        F64(x) => Ok(F64(x.abs())),
        Bool(_) => Err(PrimError::Type),
        _ => int_case1!(a, x, V => Ok(V(x.wabs())), Err(PrimError::Type)),
    }
}

fn fsgn<F: Float>(x: F, one: F, zero: F) -> F {
    if x > zero {
        one
    } else if x < zero {
        zero - one
    } else {
        x
    }
}

/// -1, 0 or 1 (floats: ±0 and NaN are returned unchanged).
pub fn sgn(a: PrimValue) -> PResult {
    use PrimValue::*;
    match a {
        F16(x) => Ok(F16(f32_to_f16(fsgn(f16_to_f32(x), 1.0, 0.0)))),
        F32(x) => Ok(F32(fsgn(x, 1.0, 0.0))),
        F64(x) => Ok(F64(fsgn(x, 1.0, 0.0))),
        Bool(_) => Err(PrimError::Type),
        _ => int_case1!(a, x, V => Ok(V(isgn(x))), Err(PrimError::Type)),
    }
}

fn isgn<T: Int>(x: T) -> T {
    if x > T::ZERO {
        T::ONE
    } else if x < T::ZERO {
        T::ONE.wneg()
    } else {
        T::ZERO
    }
}

/// `max`/`min`; for floats, if one operand is NaN the other is returned.
pub fn max_min(is_max: bool, a: PrimValue, b: PrimValue) -> PResult {
    use PrimValue::*;
    let pick = |x: f64, y: f64| if is_max { x.max(y) } else { x.min(y) };
    match (a, b) {
        (F16(x), F16(y)) => {
            let (fx, fy) = (f16_to_f32(x), f16_to_f32(y));
            let r = pick(fx as f64, fy as f64);
            Ok(F16(f64_to_f16(r)))
        }
        (F32(x), F32(y)) => Ok(F32(if is_max { x.max(y) } else { x.min(y) })),
        (F64(x), F64(y)) => Ok(F64(pick(x, y))),
        (Bool(x), Bool(y)) => Ok(Bool(if is_max { x | y } else { x & y })),
        _ => int_cases!(a, b, x, y, V => Ok(V(if is_max { x.max(y) } else { x.min(y) })), Err(PrimError::Type)),
    }
}

/// A unary float function; f16 is computed in f32.
pub fn float_un(f: FloatUn, v: PrimValue) -> PResult {
    use PrimValue::*;
    match v {
        F16(x) => Ok(F16(f32_to_f16(f16_to_f32(x).un(f)))),
        F32(x) => Ok(F32(x.un(f))),
        F64(x) => Ok(F64(x.un(f))),
        _ => Err(PrimError::Type),
    }
}

pub fn float_bin(f: FloatBin, a: PrimValue, b: PrimValue) -> PResult {
    use PrimValue::*;
    match (a, b) {
        (F16(x), F16(y)) => Ok(F16(f32_to_f16(f16_to_f32(x).bin(f, f16_to_f32(y))))),
        (F32(x), F32(y)) => Ok(F32(x.bin(f, y))),
        (F64(x), F64(y)) => Ok(F64(x.bin(f, y))),
        _ => Err(PrimError::Type),
    }
}

/// `fma a b c` (fused) when `fused`, else `mad a b c` = a*b + c.
pub fn fma(fused: bool, a: PrimValue, b: PrimValue, c: PrimValue) -> PResult {
    use PrimValue::*;
    match (a, b, c) {
        (F16(x), F16(y), F16(z)) => {
            let (x, y, z) = (f16_to_f32(x) as f64, f16_to_f32(y) as f64, f16_to_f32(z) as f64);
            Ok(F16(f64_to_f16(if fused { x.mul_add(y, z) } else { x * y + z })))
        }
        (F32(x), F32(y), F32(z)) => Ok(F32(if fused { x.fma(y, z) } else { x * y + z })),
        (F64(x), F64(y), F64(z)) => Ok(F64(if fused { x.fma(y, z) } else { x * y + z })),
        _ => Err(PrimError::Type),
    }
}

/// The float constants pi, e, epsilon, inf, nan in type `t`.
pub fn float_const(t: PrimType, name: &str) -> PrimValue {
    let v = match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => match t {
            PrimType::F16 => return PrimValue::F16(0x1400),
            PrimType::F32 => return PrimValue::F32(f32::EPSILON),
            _ => f64::EPSILON,
        },
    };
    from_f64(t, v)
}

/// What [`bit_count`] counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BitCount {
    /// The one bits (`popc`).
    Popc,
    /// The leading zero bits (`clz`).
    Clz,
    /// The trailing zero bits (`ctz`).
    Ctz,
}

/// A count of the bits of an integer, as i32 (the prelude's type for it).
pub fn bit_count(which: BitCount, v: PrimValue) -> PResult {
    int_case1!(v, x, _V => Ok(PrimValue::I32(match which {
        BitCount::Popc => x.popc(),
        BitCount::Clz => x.clz(),
        BitCount::Ctz => x.ctz(),
    } as i32)), Err(PrimError::Type))
}

/// `mul_hi a b`, and `mad_hi a b c` = mul_hi a b + c when `c` is given.
pub fn mul_hi(a: PrimValue, b: PrimValue, c: Option<PrimValue>) -> PResult {
    let hi = int_cases!(a, b, x, y, V => V(x.mul_hi(y)), return Err(PrimError::Type));
    match c {
        Some(c) => binop(BinOp::Add, hi, c),
        None => Ok(hi),
    }
}

/// Structural equality on scalars: IEEE for floats (NaN ≠ NaN, 0 = -0).
pub fn prim_eq(a: PrimValue, b: PrimValue) -> bool {
    match (a, b) {
        (PrimValue::F16(x), PrimValue::F16(y)) => f16_to_f32(x) == f16_to_f32(y),
        _ => a == b,
    }
}
