//! Floats: the members of the float modules (`f32.cbrt`, `f64.atan2`) and
//! the operators on f32 and f64; f16 is computed in f32 by the dispatch in
//! the parent module.

use super::special::{erf, erfc, gamma, lgamma};
use super::{compare, BinOp, OpResult, PrimError};

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

/// What the scalar operators need of f32 and f64 (f16 goes through f32).
pub(super) trait Float: Copy + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
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
                    BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => B(compare(op, a, b)),
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
