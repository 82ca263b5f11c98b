//! Scalar arithmetic: the operators, the members of the numeric modules,
//! conversions between primitive types, and half-precision floats.
//!
//! Semantics (see Note [Integer semantics] and Note [Conversions]):
//! - integer `+ - * **` and negation wrap (two's complement);
//! - signed `/` and `%` round toward negative infinity (the quotient is
//!   floored, the remainder takes the sign of the divisor); `//` and `%%`
//!   truncate toward zero; unsigned division is the ordinary one;
//! - float `%` is C's `fmod` (the remainder takes the sign of the dividend);
//! - f16 arithmetic is computed in f32 and rounded back to half precision.

use crate::types::PrimType;
pub use crate::values::f16::{f16_to_f32, f32_to_f16, f64_to_f16};
use crate::values::PrimValue;

// Note [Integer semantics]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Shifts take the shift amount as a value of the operand type. An amount in
// `0..bits` shifts as in C. Any other amount (negative, or at least the bit
// width) shifts every bit out: `<<` and `>>>` give 0, and `>>` gives 0 or -1
// (the sign fill). C leaves those cases undefined; this choice is the limit
// of shifting one bit at a time. `**` with a negative exponent is an error;
// `x ** 0` is 1 (also for x = 0).

// Note [Conversions]
// ~~~~~~~~~~~~~~~~~~
// `T.f x` converts x to T:
// - integer to integer keeps the low bits (two's complement wrap-around);
// - float to integer truncates toward zero and saturates at the type's
//   bounds, NaN giving 0 (Rust's `as`; C leaves out-of-range conversions
//   undefined);
// - integer to float and float to float round to nearest, ties to even;
// - to bool: nonzero (NaN is nonzero); from bool: 0 or 1.

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

pub fn prim_type(v: PrimValue) -> PrimType {
    match v {
        PrimValue::I8(_) => PrimType::I8,
        PrimValue::I16(_) => PrimType::I16,
        PrimValue::I32(_) => PrimType::I32,
        PrimValue::I64(_) => PrimType::I64,
        PrimValue::U8(_) => PrimType::U8,
        PrimValue::U16(_) => PrimType::U16,
        PrimValue::U32(_) => PrimType::U32,
        PrimValue::U64(_) => PrimType::U64,
        PrimValue::F16(_) => PrimType::F16,
        PrimValue::F32(_) => PrimType::F32,
        PrimValue::F64(_) => PrimType::F64,
        PrimValue::Bool(_) => PrimType::Bool,
    }
}

// ---------------------------------------------------------------------------
// Integers.

/// What the interpreter needs of a fixed-width integer type.
pub trait Int: Copy + Ord + Eq {
    const BITS: u32;
    const SIGNED: bool;
    const ZERO: Self;
    const ONE: Self;
    fn wadd(self, o: Self) -> Self;
    fn wsub(self, o: Self) -> Self;
    fn wmul(self, o: Self) -> Self;
    fn wneg(self) -> Self;
    /// Truncating division (`o != 0`), wrapping for `MIN / -1`.
    fn wdiv(self, o: Self) -> Self;
    fn wrem(self, o: Self) -> Self;
    fn band(self, o: Self) -> Self;
    fn bor(self, o: Self) -> Self;
    fn bxor(self, o: Self) -> Self;
    fn bnot(self) -> Self;
    /// `n < BITS`.
    fn shl(self, n: u32) -> Self;
    /// Arithmetic for signed types, logical for unsigned; `n < BITS`.
    fn shr(self, n: u32) -> Self;
    /// Logical; `n < BITS`.
    fn ushr(self, n: u32) -> Self;
    fn to_i128(self) -> i128;
    fn popc(self) -> u32;
    fn clz(self) -> u32;
    fn ctz(self) -> u32;
    /// The high half of the double-width product.
    fn mul_hi(self, o: Self) -> Self;
    fn wabs(self) -> Self;
}

macro_rules! impl_int {
    ($t:ty, $u:ty, $signed:expr, $wide:ty) => {
        impl Int for $t {
            const BITS: u32 = <$t>::BITS;
            const SIGNED: bool = $signed;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn wadd(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline]
            fn wsub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline]
            fn wmul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline]
            fn wneg(self) -> Self {
                self.wrapping_neg()
            }
            #[inline]
            fn wdiv(self, o: Self) -> Self {
                self.wrapping_div(o)
            }
            #[inline]
            fn wrem(self, o: Self) -> Self {
                self.wrapping_rem(o)
            }
            #[inline]
            fn band(self, o: Self) -> Self {
                self & o
            }
            #[inline]
            fn bor(self, o: Self) -> Self {
                self | o
            }
            #[inline]
            fn bxor(self, o: Self) -> Self {
                self ^ o
            }
            #[inline]
            fn bnot(self) -> Self {
                !self
            }
            #[inline]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline]
            fn ushr(self, n: u32) -> Self {
                ((self as $u) >> n) as $t
            }
            #[inline]
            fn to_i128(self) -> i128 {
                self as i128
            }
            fn popc(self) -> u32 {
                self.count_ones()
            }
            fn clz(self) -> u32 {
                self.leading_zeros()
            }
            fn ctz(self) -> u32 {
                self.trailing_zeros()
            }
            fn mul_hi(self, o: Self) -> Self {
                (((self as $wide) * (o as $wide)) >> <$t>::BITS) as $t
            }
            fn wabs(self) -> Self {
                if self < 0 as $t {
                    self.wrapping_neg()
                } else {
                    self
                }
            }
        }
    };
}

impl_int!(i8, u8, true, i128);
impl_int!(i16, u16, true, i128);
impl_int!(i32, u32, true, i128);
impl_int!(i64, u64, true, i128);
impl_int!(u8, u8, false, u128);
impl_int!(u16, u16, false, u128);
impl_int!(u32, u32, false, u128);
impl_int!(u64, u64, false, u128);

/// The shift amount, if it is in `0..bits`.
#[inline]
fn shift_amount<T: Int>(b: T) -> Option<u32> {
    let v = b.to_i128();
    if (0..T::BITS as i128).contains(&v) {
        Some(v as u32)
    } else {
        None
    }
}

/// Floored division (`b != 0`).
#[inline]
pub fn div_floor<T: Int>(a: T, b: T) -> T {
    let q = a.wdiv(b);
    if T::SIGNED && a.wrem(b) != T::ZERO && ((a < T::ZERO) != (b < T::ZERO)) {
        q.wsub(T::ONE)
    } else {
        q
    }
}

/// Floored modulo (`b != 0`): the result has the sign of `b`.
#[inline]
pub fn mod_floor<T: Int>(a: T, b: T) -> T {
    let r = a.wrem(b);
    if T::SIGNED && r != T::ZERO && ((r < T::ZERO) != (b < T::ZERO)) {
        r.wadd(b)
    } else {
        r
    }
}

fn wrapping_pow<T: Int>(mut base: T, mut e: u128) -> T {
    let mut acc = T::ONE;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wmul(base);
        }
        e >>= 1;
        if e > 0 {
            base = base.wmul(base);
        }
    }
    acc
}

/// The result of an operator: a value of the operand type or a bool.
pub enum OpResult<T> {
    V(T),
    B(bool),
}

#[inline]
pub fn int_binop<T: Int>(op: BinOp, a: T, b: T) -> Result<OpResult<T>, PrimError> {
    use OpResult::*;
    Ok(match op {
        BinOp::Add => V(a.wadd(b)),
        BinOp::Sub => V(a.wsub(b)),
        BinOp::Mul => V(a.wmul(b)),
        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem if b == T::ZERO => return Err(PrimError::DivisionByZero),
        BinOp::Div => V(div_floor(a, b)),
        BinOp::Mod => V(mod_floor(a, b)),
        BinOp::Quot => V(a.wdiv(b)),
        BinOp::Rem => V(a.wrem(b)),
        BinOp::Pow => {
            if b < T::ZERO {
                return Err(PrimError::NegativeExponent);
            }
            V(wrapping_pow(a, b.to_i128() as u128))
        }
        BinOp::Eq => B(a == b),
        BinOp::Neq => B(a != b),
        BinOp::Lt => B(a < b),
        BinOp::Le => B(a <= b),
        BinOp::Gt => B(a > b),
        BinOp::Ge => B(a >= b),
        BinOp::BitAnd => V(a.band(b)),
        BinOp::BitOr => V(a.bor(b)),
        BinOp::Xor => V(a.bxor(b)),
        BinOp::Shl => V(shift_amount(b).map_or(T::ZERO, |n| a.shl(n))),
        BinOp::Shr => V(match shift_amount(b) {
            Some(n) => a.shr(n),
            None if a < T::ZERO => T::ZERO.bnot(),
            None => T::ZERO,
        }),
        BinOp::UShr => V(shift_amount(b).map_or(T::ZERO, |n| a.ushr(n))),
        BinOp::LogAnd | BinOp::LogOr => return Err(PrimError::Type),
    })
}

// ---------------------------------------------------------------------------
// Floats.

/// Unary members of the float modules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatUn {
    Sqrt,
    Cbrt,
    Exp,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Gamma,
    Lgamma,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
}

impl FloatUn {
    /// The function of the float modules with this name (`f32.cbrt`); the
    /// same name is the `soac.unop` kind.
    pub fn from_name(name: &str) -> Option<FloatUn> {
        use FloatUn::*;
        Some(match name {
            "sqrt" => Sqrt,
            "cbrt" => Cbrt,
            "exp" => Exp,
            "log" => Log,
            "log2" => Log2,
            "log10" => Log10,
            "log1p" => Log1p,
            "sin" => Sin,
            "cos" => Cos,
            "tan" => Tan,
            "asin" => Asin,
            "acos" => Acos,
            "atan" => Atan,
            "sinh" => Sinh,
            "cosh" => Cosh,
            "tanh" => Tanh,
            "asinh" => Asinh,
            "acosh" => Acosh,
            "atanh" => Atanh,
            "gamma" => Gamma,
            "lgamma" => Lgamma,
            "erf" => Erf,
            "erfc" => Erfc,
            "floor" => Floor,
            "ceil" => Ceil,
            "round" => Round,
            _ => return None,
        })
    }
}

/// Binary members of the float modules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatBin {
    Atan2,
    Hypot,
    Copysign,
}

impl FloatBin {
    /// The function of the float modules with this name (`f32.atan2`); the
    /// same name is the `soac.binop` kind.
    pub fn from_name(name: &str) -> Option<FloatBin> {
        Some(match name {
            "atan2" => FloatBin::Atan2,
            "hypot" => FloatBin::Hypot,
            "copysign" => FloatBin::Copysign,
            _ => return None,
        })
    }
}

/// What the interpreter needs of f32 and f64 (f16 goes through f32).
pub trait Float: Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
    fn un(self, f: FloatUn) -> Self;
    fn bin(self, f: FloatBin, o: Self) -> Self;
    fn binop(self, op: BinOp, o: Self) -> Result<OpResult<Self>, PrimError>;
    fn fma(self, b: Self, c: Self) -> Self;
}

macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            fn un(self, f: FloatUn) -> Self {
                let x = self;
                match f {
                    FloatUn::Sqrt => x.sqrt(),
                    FloatUn::Cbrt => x.cbrt(),
                    FloatUn::Exp => x.exp(),
                    FloatUn::Log => x.ln(),
                    FloatUn::Log2 => x.log2(),
                    FloatUn::Log10 => x.log10(),
                    FloatUn::Log1p => x.ln_1p(),
                    FloatUn::Sin => x.sin(),
                    FloatUn::Cos => x.cos(),
                    FloatUn::Tan => x.tan(),
                    FloatUn::Asin => x.asin(),
                    FloatUn::Acos => x.acos(),
                    FloatUn::Atan => x.atan(),
                    FloatUn::Sinh => x.sinh(),
                    FloatUn::Cosh => x.cosh(),
                    FloatUn::Tanh => x.tanh(),
                    FloatUn::Asinh => x.asinh(),
                    FloatUn::Acosh => x.acosh(),
                    FloatUn::Atanh => x.atanh(),
                    FloatUn::Gamma => gamma(x as f64) as $t,
                    FloatUn::Lgamma => lgamma(x as f64) as $t,
                    FloatUn::Erf => erf(x as f64) as $t,
                    FloatUn::Erfc => erfc(x as f64) as $t,
                    FloatUn::Floor => x.floor(),
                    FloatUn::Ceil => x.ceil(),
                    FloatUn::Round => x.round_ties_even(),
                }
            }
            fn bin(self, f: FloatBin, o: Self) -> Self {
                match f {
                    FloatBin::Atan2 => self.atan2(o),
                    FloatBin::Hypot => self.hypot(o),
                    FloatBin::Copysign => self.copysign(o),
                }
            }
            #[inline]
            fn binop(self, op: BinOp, b: Self) -> Result<OpResult<Self>, PrimError> {
                use OpResult::*;
                let a = self;
                Ok(match op {
                    BinOp::Add => V(a + b),
                    BinOp::Sub => V(a - b),
                    BinOp::Mul => V(a * b),
                    BinOp::Div => V(a / b),
                    BinOp::Mod => V(a % b),
                    BinOp::Pow => V(a.powf(b)),
                    BinOp::Eq => B(a == b),
                    BinOp::Neq => B(a != b),
                    BinOp::Lt => B(a < b),
                    BinOp::Le => B(a <= b),
                    BinOp::Gt => B(a > b),
                    BinOp::Ge => B(a >= b),
                    _ => return Err(PrimError::Type),
                })
            }
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
        }
    };
}

impl_float!(f32);
impl_float!(f64);

// ---------------------------------------------------------------------------
// Special functions, computed in f64.

/// ln Γ(x) for x ≥ 10 by Stirling's series.
fn lgamma_stirling(x: f64) -> f64 {
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    // Bernoulli terms B_2k / (2k (2k-1) x^(2k-1)).
    let series = inv
        * (1.0 / 12.0
            + inv2
                * (-1.0 / 360.0
                    + inv2
                        * (1.0 / 1260.0
                            + inv2
                                * (-1.0 / 1680.0
                                    + inv2 * (1.0 / 1188.0 + inv2 * (-691.0 / 360_360.0 + inv2 / 156.0))))));
    (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series
}

/// sin(πx), exact at integers.
fn sin_pi(x: f64) -> f64 {
    let r = x - 2.0 * (x / 2.0).floor(); // in [0, 2)
    if r == 0.0 || r == 1.0 {
        return 0.0;
    }
    (std::f64::consts::PI * r).sin()
}

pub fn lgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::INFINITY;
    }
    if x == x.floor() && x <= 171.0 {
        // ln of an exact factorial (exactly 0 at 1 and 2).
        return gamma(x).ln();
    }
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1-x) = π / sin(πx).
        return (std::f64::consts::PI / sin_pi(x).abs()).ln() - lgamma(1.0 - x);
    }
    if x >= 10.0 {
        return lgamma_stirling(x);
    }
    // Shift up: Γ(x) = Γ(x + k) / (x (x+1) ... (x+k-1)).
    let mut prod = 1.0;
    let mut y = x;
    while y < 10.0 {
        prod *= y;
        y += 1.0;
    }
    lgamma_stirling(y) - prod.ln()
}

pub fn gamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if x == f64::INFINITY {
        return x;
    }
    if x < 0.0 && x == x.floor() {
        return f64::NAN;
    }
    if x == x.floor() && x <= 171.0 {
        // Exact factorials.
        let mut acc = 1.0;
        let mut k = 2.0;
        while k < x {
            acc *= k;
            k += 1.0;
        }
        return acc;
    }
    if x < 0.5 {
        return std::f64::consts::PI / (sin_pi(x) * gamma(1.0 - x));
    }
    if x > 171.7 {
        return f64::INFINITY;
    }
    let mut prod = 1.0;
    let mut y = x;
    while y < 10.0 {
        prod *= y;
        y += 1.0;
    }
    lgamma_stirling(y).exp() / prod
}

const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// erf(x) for |x| < 1.5 by the series 2/√π e^(-x²) Σ 2ⁿ x^(2n+1) / (1·3···(2n+1)),
/// whose terms are all positive.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
        if term.abs() <= sum.abs() * 1e-17 || n > 200.0 {
            break;
        }
    }
    FRAC_2_SQRT_PI * (-x2).exp() * sum
}

/// erfc(x) for x ≥ 1.5 by the continued fraction
/// e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
fn erfc_cf(x: f64) -> f64 {
    let mut f = x;
    let mut k = 120.0;
    while k >= 1.0 {
        f = x + (k / 2.0) / f;
        k -= 1.0;
    }
    (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 1.5 { erf_series(a) } else { 1.0 - erfc_cf(a) };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 1.5 { 1.0 - erf_series(a) } else { erfc_cf(a) };
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}

// ---------------------------------------------------------------------------
// Dispatch on PrimValue.

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
            BinOp::Eq => x == y,
            BinOp::Neq => x != y,
            BinOp::Lt => !x & y,
            BinOp::Le => x <= y,
            BinOp::Gt => x & !y,
            BinOp::Ge => x >= y,
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

/// The value `v` (an integer or float constant) in type `t`.
pub fn from_f64(t: PrimType, v: f64) -> PrimValue {
    convert(PrimValue::F64(v), t)
}

/// An integer in type `t`: integers keep the low bits, floats round.
#[inline]
pub fn from_i128(t: PrimType, v: i128) -> PrimValue {
    use PrimValue::*;
    match t {
        PrimType::I8 => I8(v as i8),
        PrimType::I16 => I16(v as i16),
        PrimType::I32 => I32(v as i32),
        PrimType::I64 => I64(v as i64),
        PrimType::U8 => U8(v as u8),
        PrimType::U16 => U16(v as u16),
        PrimType::U32 => U32(v as u32),
        PrimType::U64 => U64(v as u64),
        PrimType::F16 => F16(f64_to_f16(v as f64)),
        PrimType::F32 => F32(v as f32),
        PrimType::F64 => F64(v as f64),
        PrimType::Bool => Bool(v != 0),
    }
}

/// The exact value of an integer (or bool) as i128.
pub fn as_i128(v: PrimValue) -> Option<i128> {
    match v {
        PrimValue::Bool(b) => Some(b as i128),
        _ => int_case1!(v, x, _V => Some(x.to_i128()), None),
    }
}

/// A float (of any width) as f64.
pub fn as_f64(v: PrimValue) -> Option<f64> {
    match v {
        PrimValue::F16(x) => Some(f16_to_f32(x) as f64),
        PrimValue::F32(x) => Some(x as f64),
        PrimValue::F64(x) => Some(x),
        _ => None,
    }
}

/// `T.f x`: see Note [Conversions].
pub fn convert(v: PrimValue, to: PrimType) -> PrimValue {
    use PrimValue::*;
    if let Some(i) = as_i128(v) {
        return from_i128(to, i);
    }
    let f = as_f64(v).unwrap_or(0.0);
    if let (F32(x), PrimType::F32) = (v, to) {
        return F32(x);
    }
    match to {
        PrimType::I8 => I8(f as i8),
        PrimType::I16 => I16(f as i16),
        PrimType::I32 => I32(f as i32),
        PrimType::I64 => I64(f as i64),
        PrimType::U8 => U8(f as u8),
        PrimType::U16 => U16(f as u16),
        PrimType::U32 => U32(f as u32),
        PrimType::U64 => U64(f as u64),
        PrimType::F16 => F16(f64_to_f16(f)),
        PrimType::F32 => F32(f as f32),
        PrimType::F64 => F64(f),
        PrimType::Bool => Bool(f != 0.0),
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

pub fn to_bits(v: PrimValue) -> PResult {
    use PrimValue::*;
    match v {
        F16(x) => Ok(U16(x)),
        F32(x) => Ok(U32(x.to_bits())),
        F64(x) => Ok(U64(x.to_bits())),
        _ => Err(PrimError::Type),
    }
}

pub fn from_bits(t: PrimType, v: PrimValue) -> PResult {
    use PrimValue::*;
    match (t, v) {
        (PrimType::F16, U16(x)) => Ok(F16(x)),
        (PrimType::F32, U32(x)) => Ok(F32(f32::from_bits(x))),
        (PrimType::F64, U64(x)) => Ok(F64(f64::from_bits(x))),
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

/// popc / clz / ctz (0, 1, 2) as i32.
pub fn bit_count(which: u8, v: PrimValue) -> PResult {
    int_case1!(v, x, _V => Ok(PrimValue::I32(match which {
        0 => x.popc(),
        1 => x.clz(),
        _ => x.ctz(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trip() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16(f), h, "{h:#x} {f}");
            }
        }
        assert_eq!(f32_to_f16(1.5), 0x3e00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // rounds to inf
        assert_eq!(f32_to_f16(1e-8), 0);
        // Ties to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02);
        // Smallest subnormal and half of it.
        assert_eq!(f64_to_f16(2f64.powi(-24)), 1);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0);
        assert_eq!(f64_to_f16(1.5 * 2f64.powi(-25)), 1);
    }

    #[test]
    fn special_functions() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1e-300);
        assert!(close(erf(1.0), 0.842_700_792_949_714_9));
        assert!(close(erf(0.5), 0.520_499_877_813_046_5));
        assert!(close(erf(-2.0), -0.995_322_265_018_952_7));
        assert!(close(erfc(3.0), 2.209_049_699_858_544e-5));
        assert!(close(erfc(5.0), 1.537_459_794_428_034_8e-12));
        assert!(close(erfc(2.5), 4.069_520_174_449_59e-4));
        assert!(close(erfc(-1.0), 1.842_700_792_949_715));
        assert_eq!(gamma(5.0), 24.0);
        assert!(close(gamma(0.5), std::f64::consts::PI.sqrt()));
        assert!(close(gamma(-1.5), 2.363_271_801_207_355));
        assert!(close(gamma(10.3), 716_430.689_062_376_5));
        assert!(close(lgamma(100.0), 359.134_205_369_575_4));
        assert!(close(lgamma(0.1), 2.252_712_651_734_206));
        assert!(close(lgamma(-0.5), 1.265_512_123_484_645_4));
        assert!(gamma(-2.0).is_nan());
        assert_eq!(lgamma(0.0), f64::INFINITY);
    }

    #[test]
    fn integer_semantics() {
        let b = |op, x: i32, y: i32| binop(op, PrimValue::I32(x), PrimValue::I32(y));
        assert_eq!(b(BinOp::Div, -7, 2), Ok(PrimValue::I32(-4)));
        assert_eq!(b(BinOp::Mod, -7, 2), Ok(PrimValue::I32(1)));
        assert_eq!(b(BinOp::Mod, 7, -2), Ok(PrimValue::I32(-1)));
        assert_eq!(b(BinOp::Quot, -7, 2), Ok(PrimValue::I32(-3)));
        assert_eq!(b(BinOp::Rem, -7, 2), Ok(PrimValue::I32(-1)));
        assert_eq!(b(BinOp::Div, i32::MIN, -1), Ok(PrimValue::I32(i32::MIN)));
        assert_eq!(b(BinOp::Mod, i32::MIN, -1), Ok(PrimValue::I32(0)));
        assert_eq!(b(BinOp::Div, 1, 0), Err(PrimError::DivisionByZero));
        assert_eq!(b(BinOp::Rem, 1, 0), Err(PrimError::DivisionByZero));
        assert_eq!(b(BinOp::Pow, 2, -1), Err(PrimError::NegativeExponent));
        assert_eq!(b(BinOp::Pow, 3, 4), Ok(PrimValue::I32(81)));
        assert_eq!(b(BinOp::Pow, 2, 31), Ok(PrimValue::I32(i32::MIN)));
        assert_eq!(b(BinOp::Pow, 0, 0), Ok(PrimValue::I32(1)));
        assert_eq!(b(BinOp::Shr, -16, 2), Ok(PrimValue::I32(-4)));
        assert_eq!(b(BinOp::UShr, -16, 28), Ok(PrimValue::I32(15)));
        assert_eq!(b(BinOp::Shl, 1, 32), Ok(PrimValue::I32(0)));
        assert_eq!(b(BinOp::Shr, -1, 40), Ok(PrimValue::I32(-1)));
        assert_eq!(b(BinOp::Shl, 1, -1), Ok(PrimValue::I32(0)));
        assert_eq!(b(BinOp::Add, i32::MAX, 1), Ok(PrimValue::I32(i32::MIN)));
        let u = |op, x: u8, y: u8| binop(op, PrimValue::U8(x), PrimValue::U8(y));
        assert_eq!(u(BinOp::Div, 200, 7), Ok(PrimValue::U8(28)));
        assert_eq!(u(BinOp::Mod, 200, 7), Ok(PrimValue::U8(4)));
        assert_eq!(u(BinOp::Sub, 0, 1), Ok(PrimValue::U8(255)));
        assert_eq!(u(BinOp::Shr, 128, 7), Ok(PrimValue::U8(1)));
        assert_eq!(u(BinOp::Pow, 2, 9), Ok(PrimValue::U8(0)));
        assert_eq!(u(BinOp::Lt, 1, 200), Ok(PrimValue::Bool(true)));
        let m = mul_hi(PrimValue::U64(u64::MAX), PrimValue::U64(u64::MAX), None);
        assert_eq!(m, Ok(PrimValue::U64(u64::MAX - 1)));
        let m = mul_hi(PrimValue::I32(-1), PrimValue::I32(1), None);
        assert_eq!(m, Ok(PrimValue::I32(-1)));
        let m = mul_hi(PrimValue::I8(100), PrimValue::I8(100), Some(PrimValue::I8(1)));
        assert_eq!(m, Ok(PrimValue::I8(40)));
    }

    #[test]
    fn conversions() {
        assert_eq!(convert(PrimValue::F32(-2.75), PrimType::I32), PrimValue::I32(-2));
        assert_eq!(convert(PrimValue::F64(1e10), PrimType::I32), PrimValue::I32(i32::MAX));
        assert_eq!(convert(PrimValue::F64(f64::NAN), PrimType::I64), PrimValue::I64(0));
        assert_eq!(convert(PrimValue::I32(-1), PrimType::U8), PrimValue::U8(255));
        assert_eq!(convert(PrimValue::U8(255), PrimType::I32), PrimValue::I32(255));
        assert_eq!(convert(PrimValue::I8(-1), PrimType::U64), PrimValue::U64(u64::MAX));
        assert_eq!(
            convert(PrimValue::U64(u64::MAX), PrimType::F64),
            PrimValue::F64(1.8446744073709552e19)
        );
        assert_eq!(convert(PrimValue::I32(3), PrimType::Bool), PrimValue::Bool(true));
        assert_eq!(convert(PrimValue::Bool(true), PrimType::F32), PrimValue::F32(1.0));
        assert_eq!(convert(PrimValue::F16(0x3e00), PrimType::F32), PrimValue::F32(1.5));
        assert_eq!(convert(PrimValue::F64(f64::NAN), PrimType::Bool), PrimValue::Bool(true));
        assert_eq!(
            convert(PrimValue::I64(16777217), PrimType::F32),
            PrimValue::F32(16777216.0)
        );
    }

    #[test]
    fn float_semantics() {
        let nan = PrimValue::F32(f32::NAN);
        assert_eq!(max_min(true, nan, PrimValue::F32(1.0)), Ok(PrimValue::F32(1.0)));
        assert_eq!(
            max_min(false, PrimValue::F64(2.0), PrimValue::F64(f64::NAN)),
            Ok(PrimValue::F64(2.0))
        );
        assert_eq!(
            binop(BinOp::Mod, PrimValue::F64(-7.5), PrimValue::F64(2.0)),
            Ok(PrimValue::F64(-1.5))
        );
        assert_eq!(binop(BinOp::Eq, nan, nan), Ok(PrimValue::Bool(false)));
        assert_eq!(sgn(PrimValue::F64(-3.0)), Ok(PrimValue::F64(-1.0)));
        assert_eq!(sgn(PrimValue::I8(-3)), Ok(PrimValue::I8(-1)));
        assert_eq!(sgn(PrimValue::U8(3)), Ok(PrimValue::U8(1)));
        assert_eq!(abs(PrimValue::I8(i8::MIN)), Ok(PrimValue::I8(i8::MIN)));
        assert_eq!(neg(PrimValue::U32(1)), Ok(PrimValue::U32(u32::MAX)));
        assert_eq!(float_un(FloatUn::Round, PrimValue::F64(2.5)), Ok(PrimValue::F64(2.0)));
        assert_eq!(float_un(FloatUn::Round, PrimValue::F32(3.5)), Ok(PrimValue::F32(4.0)));
        let h = |x: f32| PrimValue::F16(f32_to_f16(x));
        assert_eq!(binop(BinOp::Add, h(1.5), h(0.25)), Ok(h(1.75)));
        assert_eq!(binop(BinOp::Div, h(1.0), h(3.0)), Ok(PrimValue::F16(0x3555)));
        assert_eq!(bit_count(0, PrimValue::I32(-1)), Ok(PrimValue::I32(32)));
        assert_eq!(bit_count(1, PrimValue::U16(1)), Ok(PrimValue::I32(15)));
        assert_eq!(bit_count(2, PrimValue::I64(0)), Ok(PrimValue::I32(64)));
        assert_eq!(to_bits(PrimValue::F32(1.0)), Ok(PrimValue::U32(0x3f80_0000)));
        assert_eq!(from_bits(PrimType::F64, PrimValue::U64(0)), Ok(PrimValue::F64(0.0)));
    }
}
