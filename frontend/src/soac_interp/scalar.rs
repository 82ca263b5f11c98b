//! Scalar semantics of `soac.binop`, `cmpop`, `unop`, `ternop`, `convop`
//! (the op descriptions in `dialects/src/soac/ops.rs`).
//!
//! The kinds that are functions of Futhark's numeric modules and nothing
//! more basic (`cbrt`, `atan2`, `mul_hi`, `fma`, ...) are computed by the
//! reference interpreter's own functions (`interp::prim`), so the two
//! interpreters agree on them by construction.
//!
//! Integers are computed on their exact value as an `i128` (sign-extended
//! for signed types, zero-extended for unsigned ones) and wrapped back to
//! the type's width, which gives two's complement wrap-around for `add`,
//! `sub`, `mul`, `pow` and the bitwise operations. `div` and `mod` round
//! towards negative infinity, `rem` towards zero; dividing by zero is an
//! error. A shift by an amount outside `0..bits` shifts every bit out (`shl`
//! and `ushr` give 0, `shr` the sign fill); a negative exponent is an error.
//!
//! Floats: f32 and f64 are computed in their own precision, f16 in f32 and
//! rounded back. `mod` is C's `fmod`; `min`/`max` return the other operand
//! when one is NaN; `round` rounds half to even; `signum` keeps ±0 and NaN.
//! Float to integer conversions truncate and saturate (NaN gives 0).

use futmlir_dialects::ir::Scalar;

use crate::interp::prim::{self, FloatBin, FloatUn};
use crate::values::f16::{f16_to_f32, f32_to_f16, f64_to_f16};
use crate::values::PrimValue;

/// The IR scalar type of a value.
pub fn scalar_of(p: PrimValue) -> Scalar {
    match p {
        PrimValue::I8(_) => Scalar::I8,
        PrimValue::I16(_) => Scalar::I16,
        PrimValue::I32(_) => Scalar::I32,
        PrimValue::I64(_) => Scalar::I64,
        PrimValue::U8(_) => Scalar::U8,
        PrimValue::U16(_) => Scalar::U16,
        PrimValue::U32(_) => Scalar::U32,
        PrimValue::U64(_) => Scalar::U64,
        PrimValue::F16(_) => Scalar::F16,
        PrimValue::F32(_) => Scalar::F32,
        PrimValue::F64(_) => Scalar::F64,
        PrimValue::Bool(_) => Scalar::Bool,
    }
}

pub use crate::types::prim_of_scalar as prim_type;

/// The exact value of an integer.
pub fn int_value(p: PrimValue) -> Option<i128> {
    Some(match p {
        PrimValue::I8(x) => x as i128,
        PrimValue::I16(x) => x as i128,
        PrimValue::I32(x) => x as i128,
        PrimValue::I64(x) => x as i128,
        PrimValue::U8(x) => x as i128,
        PrimValue::U16(x) => x as i128,
        PrimValue::U32(x) => x as i128,
        PrimValue::U64(x) => x as i128,
        _ => return None,
    })
}

/// `v` wrapped to the integer type `s` (keeps the low bits). For a float
/// or bool type, the value converted.
pub fn make_int(v: i128, s: Scalar) -> PrimValue {
    match s {
        Scalar::I8 => PrimValue::I8(v as i8),
        Scalar::I16 => PrimValue::I16(v as i16),
        Scalar::I32 => PrimValue::I32(v as i32),
        Scalar::I64 => PrimValue::I64(v as i64),
        Scalar::U8 => PrimValue::U8(v as u8),
        Scalar::U16 => PrimValue::U16(v as u16),
        Scalar::U32 => PrimValue::U32(v as u32),
        Scalar::U64 => PrimValue::U64(v as u64),
        Scalar::F16 => PrimValue::F16(f64_to_f16(v as f64)),
        Scalar::F32 => PrimValue::F32(v as f32),
        Scalar::F64 => PrimValue::F64(v as f64),
        Scalar::Bool => PrimValue::Bool(v != 0),
    }
}

/// A float value of type `s` from an f64 (rounded to the type).
pub fn make_float(x: f64, s: Scalar) -> PrimValue {
    match s {
        Scalar::F16 => PrimValue::F16(f64_to_f16(x)),
        Scalar::F32 => PrimValue::F32(x as f32),
        Scalar::F64 => PrimValue::F64(x),
        _ => float_to_int(x, s),
    }
}

/// The bit pattern of an integer of `bits` width, as a non-negative value.
fn pattern(v: i128, bits: u32) -> i128 {
    v & ((1i128 << bits) - 1)
}

/// A float to an integer type: truncation, saturation, NaN to 0.
fn float_to_int(x: f64, s: Scalar) -> PrimValue {
    match s {
        Scalar::I8 => PrimValue::I8(x as i8),
        Scalar::I16 => PrimValue::I16(x as i16),
        Scalar::I32 => PrimValue::I32(x as i32),
        Scalar::I64 => PrimValue::I64(x as i64),
        Scalar::U8 => PrimValue::U8(x as u8),
        Scalar::U16 => PrimValue::U16(x as u16),
        Scalar::U32 => PrimValue::U32(x as u32),
        Scalar::U64 => PrimValue::U64(x as u64),
        Scalar::Bool => PrimValue::Bool(x != 0.0),
        f => make_float(x, f),
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn floor_mod(a: i128, b: i128) -> i128 {
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

fn int_binop(kind: &str, a: i128, b: i128, s: Scalar) -> Result<PrimValue, String> {
    let bits = s.bits();
    let shift = |b: i128| (0..bits as i128).contains(&b).then_some(b as u32);
    let r = match kind {
        "add" => a.wrapping_add(b),
        "sub" => a.wrapping_sub(b),
        "mul" => a.wrapping_mul(b),
        "div" | "mod" | "rem" if b == 0 => return Err("division by zero".into()),
        "div" => floor_div(a, b),
        "mod" => floor_mod(a, b),
        "rem" => a % b,
        "pow" => {
            if b < 0 {
                return Err("negative exponent".into());
            }
            let (mut base, mut e, mut acc) = (a, b, 1i128);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc.wrapping_mul(base);
                }
                e >>= 1;
                base = base.wrapping_mul(base);
            }
            acc
        }
        "min" => a.min(b),
        "max" => a.max(b),
        "and" => a & b,
        "or" => a | b,
        "xor" => a ^ b,
        "shl" => shift(b).map_or(0, |n| a << n),
        // The value is sign-extended for signed types, so this is
        // arithmetic for them and logical for unsigned ones.
        "shr" => match shift(b) {
            Some(n) => a >> n,
            None if a < 0 => -1,
            None => 0,
        },
        "ushr" => shift(b).map_or(0, |n| pattern(a, bits) >> n),
        _ => return Err(format!("binop `{kind}` does not apply to {}", s.futhark_name())),
    };
    Ok(make_int(r, s))
}

macro_rules! float_ops {
    ($bin:ident, $un:ident, $t:ty) => {
        fn $bin(kind: &str, a: $t, b: $t) -> Option<$t> {
            Some(match kind {
                "add" => a + b,
                "sub" => a - b,
                "mul" => a * b,
                "div" => a / b,
                "mod" => a % b,
                "pow" => a.powf(b),
                "min" => a.min(b),
                "max" => a.max(b),
                _ => return None,
            })
        }

        fn $un(kind: &str, a: $t) -> Option<$t> {
            Some(match kind {
                "neg" => -a,
                "abs" => a.abs(),
                "signum" => {
                    if a > 0.0 {
                        1.0
                    } else if a < 0.0 {
                        -1.0
                    } else {
                        a
                    }
                }
                "sqrt" => a.sqrt(),
                "exp" => a.exp(),
                "log" => a.ln(),
                "sin" => a.sin(),
                "cos" => a.cos(),
                "tan" => a.tan(),
                "floor" => a.floor(),
                "ceil" => a.ceil(),
                "round" => a.round_ties_even(),
                _ => return None,
            })
        }
    };
}

float_ops!(f32_binop, f32_unop, f32);
float_ops!(f64_binop, f64_unop, f64);

/// `soac.binop {kind}`.
pub fn binop(kind: &str, a: PrimValue, b: PrimValue) -> Result<PrimValue, String> {
    let bad = || {
        format!(
            "binop `{kind}` does not apply to {} and {}",
            prim_type(scalar_of(a)).name(),
            prim_type(scalar_of(b)).name()
        )
    };
    match (kind, FloatBin::from_name(kind)) {
        ("mul_hi", _) => return prim::mul_hi(a, b, None).map_err(|_| bad()),
        ("pow", _) | (_, None) => {}
        (_, Some(f)) => return prim::float_bin(f, a, b).map_err(|_| bad()),
    }
    match (a, b) {
        (PrimValue::F64(x), PrimValue::F64(y)) => f64_binop(kind, x, y).map(PrimValue::F64).ok_or_else(bad),
        (PrimValue::F32(x), PrimValue::F32(y)) => f32_binop(kind, x, y).map(PrimValue::F32).ok_or_else(bad),
        (PrimValue::F16(x), PrimValue::F16(y)) => f32_binop(kind, f16_to_f32(x), f16_to_f32(y))
            .map(|r| PrimValue::F16(f32_to_f16(r)))
            .ok_or_else(bad),
        (PrimValue::Bool(x), PrimValue::Bool(y)) => Ok(PrimValue::Bool(match kind {
            "and" | "min" => x & y,
            "or" | "max" => x | y,
            "xor" => x ^ y,
            _ => return Err(bad()),
        })),
        _ if scalar_of(a) == scalar_of(b) => match (int_value(a), int_value(b)) {
            (Some(x), Some(y)) => int_binop(kind, x, y, scalar_of(a)),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// `soac.cmpop {kind}`.
pub fn cmpop(kind: &str, a: PrimValue, b: PrimValue) -> Result<bool, String> {
    use std::cmp::Ordering;
    let ord: Option<Ordering> = match (a, b) {
        (PrimValue::F64(x), PrimValue::F64(y)) => x.partial_cmp(&y),
        (PrimValue::F32(x), PrimValue::F32(y)) => x.partial_cmp(&y),
        (PrimValue::F16(x), PrimValue::F16(y)) => f16_to_f32(x).partial_cmp(&f16_to_f32(y)),
        (PrimValue::Bool(x), PrimValue::Bool(y)) => Some(x.cmp(&y)),
        _ if scalar_of(a) == scalar_of(b) => match (int_value(a), int_value(b)) {
            (Some(x), Some(y)) => Some(x.cmp(&y)),
            _ => None,
        },
        _ => {
            return Err(format!(
                "cmpop of different types {} and {}",
                prim_type(scalar_of(a)).name(),
                prim_type(scalar_of(b)).name()
            ))
        }
    };
    // NaN is unordered: only `ne` holds.
    Ok(match (kind, ord) {
        ("eq", o) => o == Some(Ordering::Equal),
        ("ne", o) => o != Some(Ordering::Equal),
        ("lt", o) => o == Some(Ordering::Less),
        ("le", o) => matches!(o, Some(Ordering::Less | Ordering::Equal)),
        ("gt", o) => o == Some(Ordering::Greater),
        ("ge", o) => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
        _ => return Err(format!("unknown cmpop `{kind}`")),
    })
}

/// `soac.unop {kind}`.
pub fn unop(kind: &str, a: PrimValue) -> Result<PrimValue, String> {
    let s = scalar_of(a);
    let bad = || format!("unop `{kind}` does not apply to {}", prim_type(s).name());
    if s.is_float() && !BASIC_FLOAT_UNOPS.contains(&kind) {
        let f = FloatUn::from_name(kind).ok_or_else(bad)?;
        return prim::float_un(f, a).map_err(|_| bad());
    }
    match a {
        PrimValue::F64(x) => f64_unop(kind, x).map(PrimValue::F64).ok_or_else(bad),
        PrimValue::F32(x) => f32_unop(kind, x).map(PrimValue::F32).ok_or_else(bad),
        PrimValue::F16(x) => f32_unop(kind, f16_to_f32(x))
            .map(|r| PrimValue::F16(f32_to_f16(r)))
            .ok_or_else(bad),
        PrimValue::Bool(x) if kind == "not" => Ok(PrimValue::Bool(!x)),
        PrimValue::Bool(_) => Err(bad()),
        _ => {
            let v = int_value(a).ok_or_else(bad)?;
            let bits = s.bits();
            let r = match kind {
                "neg" => v.wrapping_neg(),
                "not" => !v,
                "abs" => v.abs(),
                "signum" => v.signum(),
                "popc" => pattern(v, bits).count_ones() as i128,
                "clz" => (pattern(v, bits).leading_zeros() - (128 - bits)) as i128,
                _ => return Err(bad()),
            };
            Ok(make_int(r, s))
        }
    }
}

/// The float `unop` kinds computed here rather than by `interp::prim`.
const BASIC_FLOAT_UNOPS: &[&str] = &[
    "neg", "abs", "signum", "sqrt", "exp", "log", "sin", "cos", "tan", "floor", "ceil", "round",
];

/// `soac.ternop {kind}`: `fma` and `mad` on floats.
pub fn ternop(kind: &str, a: PrimValue, b: PrimValue, c: PrimValue) -> Result<PrimValue, String> {
    let fused = match kind {
        "fma" => true,
        "mad" => false,
        _ => return Err(format!("unknown ternop `{kind}`")),
    };
    prim::fma(fused, a, b, c).map_err(|_| {
        format!(
            "ternop `{kind}` does not apply to {}, {} and {}",
            prim_type(scalar_of(a)).name(),
            prim_type(scalar_of(b)).name(),
            prim_type(scalar_of(c)).name()
        )
    })
}

/// The bits of a scalar (a float's IEEE representation), non-negative.
fn bits_of(a: PrimValue) -> i128 {
    match a {
        PrimValue::F16(x) => x as i128,
        PrimValue::F32(x) => x.to_bits() as i128,
        PrimValue::F64(x) => x.to_bits() as i128,
        PrimValue::Bool(b) => b as i128,
        _ => pattern(int_value(a).unwrap_or(0), scalar_of(a).bits()),
    }
}

fn as_f64(a: PrimValue) -> Option<f64> {
    match a {
        PrimValue::F16(x) => Some(f16_to_f32(x) as f64),
        PrimValue::F32(x) => Some(x as f64),
        PrimValue::F64(x) => Some(x),
        _ => None,
    }
}

/// `soac.convop {kind}` of `a` to type `to`.
pub fn convop(kind: &str, a: PrimValue, to: Scalar) -> Result<PrimValue, String> {
    let from = scalar_of(a);
    let bad = || {
        format!(
            "convop `{kind}` cannot convert {} to {}",
            prim_type(from).name(),
            prim_type(to).name()
        )
    };
    let int = || int_value(a).ok_or_else(bad);
    let float = || as_f64(a).ok_or_else(bad);
    match kind {
        "zext" if to.is_int() => Ok(make_int(pattern(int()?, from.bits()), to)),
        "sext" if to.is_int() => {
            let w = from.bits();
            let p = pattern(int()?, w);
            let v = if p >> (w - 1) & 1 == 1 { p - (1i128 << w) } else { p };
            Ok(make_int(v, to))
        }
        "trunc" if to.is_int() => Ok(make_int(int()?, to)),
        "fpconv" if to.is_float() => Ok(make_float(float()?, to)),
        "fptoui" | "fptosi" if to.is_int() => Ok(float_to_int(float()?, to)),
        "uitofp" | "sitofp" if to.is_float() => {
            let v = int()?;
            Ok(match to {
                Scalar::F32 => PrimValue::F32(v as f32),
                _ => make_float(v as f64, to),
            })
        }
        "itob" if to == Scalar::Bool => Ok(PrimValue::Bool(int()? != 0)),
        "btoi" if to.is_int() => match a {
            PrimValue::Bool(b) => Ok(make_int(b as i128, to)),
            _ => Err(bad()),
        },
        "bitcast" if from.bits() == to.bits() => {
            let b = bits_of(a);
            Ok(match to {
                Scalar::F16 => PrimValue::F16(b as u16),
                Scalar::F32 => PrimValue::F32(f32::from_bits(b as u32)),
                Scalar::F64 => PrimValue::F64(f64::from_bits(b as u64)),
                Scalar::Bool => PrimValue::Bool(b != 0),
                _ => make_int(b, to),
            })
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimValue::*;

    #[test]
    fn integer_division_rounding() {
        assert_eq!(binop("div", I32(-7), I32(2)), Ok(I32(-4)));
        assert_eq!(binop("mod", I32(-7), I32(2)), Ok(I32(1)));
        assert_eq!(binop("rem", I32(-7), I32(2)), Ok(I32(-1)));
        assert_eq!(binop("mod", I32(7), I32(-2)), Ok(I32(-1)));
        assert_eq!(binop("div", I32(i32::MIN), I32(-1)), Ok(I32(i32::MIN)));
        assert_eq!(binop("div", U8(200), U8(7)), Ok(U8(28)));
        assert!(binop("div", I64(1), I64(0)).is_err());
    }

    #[test]
    fn wrapping_and_shifts() {
        assert_eq!(binop("add", U8(250), U8(10)), Ok(U8(4)));
        assert_eq!(binop("mul", U64(u64::MAX), U64(u64::MAX)), Ok(U64(1)));
        assert_eq!(binop("pow", I32(3), I32(4)), Ok(I32(81)));
        assert_eq!(binop("shr", I8(-8), I8(1)), Ok(I8(-4)));
        assert_eq!(binop("ushr", I8(-8), I8(1)), Ok(I8(124)));
        assert_eq!(binop("shl", I32(1), I32(40)), Ok(I32(0)));
        assert_eq!(binop("shr", I32(-1), I32(40)), Ok(I32(-1)));
        assert_eq!(unop("clz", U32(1)), Ok(U32(31)));
        assert_eq!(unop("popc", I8(-1)), Ok(I8(8)));
        assert_eq!(unop("abs", I8(-128)), Ok(I8(-128)));
    }

    #[test]
    fn conversions() {
        assert_eq!(convop("sext", I8(-1), Scalar::I32), Ok(I32(-1)));
        assert_eq!(convop("zext", U8(255), Scalar::I32), Ok(I32(255)));
        assert_eq!(convop("trunc", I32(300), Scalar::U8), Ok(U8(44)));
        assert_eq!(convop("bitcast", I32(-1), Scalar::U32), Ok(U32(u32::MAX)));
        assert_eq!(convop("bitcast", F32(1.0), Scalar::U32), Ok(U32(0x3f80_0000)));
        assert_eq!(convop("fptosi", F64(-2.7), Scalar::I32), Ok(I32(-2)));
        assert_eq!(convop("fptoui", F64(-2.7), Scalar::U8), Ok(U8(0)));
        assert_eq!(convop("itob", I32(2), Scalar::Bool), Ok(Bool(true)));
    }

    #[test]
    fn math_functions_are_the_reference_interpreters() {
        assert_eq!(unop("cbrt", F64(27.0)), Ok(F64(3.0)));
        assert_eq!(unop("log2", F32(8.0)), Ok(F32(3.0)));
        assert_eq!(unop("gamma", F64(5.0)), Ok(F64(24.0)));
        assert!(unop("lgamma", I32(1)).is_err());
        assert_eq!(binop("atan2", F64(0.0), F64(-1.0)), Ok(F64(std::f64::consts::PI)));
        assert_eq!(binop("hypot", F32(3.0), F32(4.0)), Ok(F32(5.0)));
        assert_eq!(binop("copysign", F64(2.0), F64(-0.0)), Ok(F64(-2.0)));
        assert_eq!(binop("mul_hi", U64(u64::MAX), U64(u64::MAX)), Ok(U64(u64::MAX - 1)));
        assert_eq!(binop("mul_hi", I8(-1), I8(1)), Ok(I8(-1)));
        assert!(binop("mul_hi", F32(1.0), F32(1.0)).is_err());
        // a*b = 1 - 2^-60 rounds to 1: only fma keeps the difference.
        let (a, b) = (F64(1.0 + 2f64.powi(-30)), F64(1.0 - 2f64.powi(-30)));
        assert_eq!(ternop("fma", a, b, F64(-1.0)), Ok(F64(-(2f64.powi(-60)))));
        assert_eq!(ternop("mad", a, b, F64(-1.0)), Ok(F64(0.0)));
        assert!(ternop("fma", I32(1), I32(1), I32(1)).is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(unop("round", F64(2.5)), Ok(F64(2.0)));
        assert_eq!(binop("max", F32(f32::NAN), F32(1.0)), Ok(F32(1.0)));
        assert_eq!(cmpop("ne", F32(f32::NAN), F32(f32::NAN)), Ok(true));
        assert_eq!(cmpop("eq", F32(f32::NAN), F32(f32::NAN)), Ok(false));
        assert_eq!(binop("mod", F64(-7.0), F64(2.0)), Ok(F64(-1.0)));
    }
}
