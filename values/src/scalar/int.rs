//! Fixed-width integers: the operators on one generic [`Int`], so that
//! every width and signedness shares one definition of wrap-around, floored
//! division and out-of-range shifts (see Note [Integer semantics]).

use super::{compare, BinOp, OpResult, PrimError};

/// What the scalar operators need of a fixed-width integer type.
pub(super) trait Int: Copy + Ord + Eq {
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
pub(super) fn div_floor<T: Int>(a: T, b: T) -> T {
    let q = a.wdiv(b);
    if T::SIGNED && a.wrem(b) != T::ZERO && ((a < T::ZERO) != (b < T::ZERO)) {
        q.wsub(T::ONE)
    } else {
        q
    }
}

/// Floored modulo (`b != 0`): the result has the sign of `b`.
#[inline]
pub(super) fn mod_floor<T: Int>(a: T, b: T) -> T {
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

#[inline]
pub(super) fn int_binop<T: Int>(op: BinOp, a: T, b: T) -> Result<OpResult<T>, PrimError> {
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
        BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => B(compare(op, a, b)),
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
