//! Conversions between primitive types (see Note [Conversions]) and
//! reinterpretations of bit patterns.

use super::{PResult, PrimError};
use crate::f16::{f16_to_f32, f64_to_f16};
use crate::{PrimType, PrimValue};

// Note [Conversions]
// ~~~~~~~~~~~~~~~~~~
// `T.f x` converts x to T:
// - integer to integer keeps the low bits (two's complement wrap-around);
// - float to integer truncates toward zero and saturates at the type's
//   bounds, NaN giving 0 (Rust's `as`; C leaves out-of-range conversions
//   undefined);
// - integer to float and float to float round to nearest, ties to even
//   (an integer goes to f32 directly, not through f64, which could round
//   twice);
// - to bool: nonzero (NaN is nonzero); from bool: 0 or 1.
// A bitcast keeps the bits instead: an integer's two's complement pattern,
// a float's IEEE encoding, a bool's 0 or 1.

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

/// The exact value of an integer as i128 (sign-extended for signed types,
/// zero-extended for unsigned ones); `None` for floats and bools.
pub fn as_i128(v: PrimValue) -> Option<i128> {
    int_case1!(v, x, _V => Some(super::int::Int::to_i128(x)), None)
}

/// A float (of any width) as f64 (exactly).
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
    let f = match v {
        Bool(b) => return from_i128(to, b as i128),
        // Bit for bit: a trip through f64 may quiet a signalling NaN.
        F32(x) if to == PrimType::F32 => return F32(x),
        _ => as_f64(v).unwrap_or(0.0),
    };
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

/// The bits of `v`, zero-extended: see Note [Conversions].
pub fn bit_pattern(v: PrimValue) -> u64 {
    use PrimValue::*;
    match v {
        I8(x) => x as u8 as u64,
        I16(x) => x as u16 as u64,
        I32(x) => x as u32 as u64,
        I64(x) => x as u64,
        U8(x) => x as u64,
        U16(x) => x as u64,
        U32(x) => x as u64,
        U64(x) => x,
        F16(x) => x as u64,
        F32(x) => x.to_bits() as u64,
        F64(x) => x.to_bits(),
        Bool(b) => b as u64,
    }
}

/// The value of type `t` whose bits are the low bits of `bits` (a bool:
/// whether they are nonzero).
pub fn from_bit_pattern(t: PrimType, bits: u64) -> PrimValue {
    use PrimValue::*;
    match t {
        PrimType::I8 => I8(bits as i8),
        PrimType::I16 => I16(bits as i16),
        PrimType::I32 => I32(bits as i32),
        PrimType::I64 => I64(bits as i64),
        PrimType::U8 => U8(bits as u8),
        PrimType::U16 => U16(bits as u16),
        PrimType::U32 => U32(bits as u32),
        PrimType::U64 => U64(bits),
        PrimType::F16 => F16(bits as u16),
        PrimType::F32 => F32(f32::from_bits(bits as u32)),
        PrimType::F64 => F64(f64::from_bits(bits)),
        PrimType::Bool => Bool(bits != 0),
    }
}

/// The integer type of `bits` width and the given signedness.
fn int_type(bits: u32, signed: bool) -> Option<PrimType> {
    Some(match (bits, signed) {
        (8, true) => PrimType::I8,
        (16, true) => PrimType::I16,
        (32, true) => PrimType::I32,
        (64, true) => PrimType::I64,
        (8, false) => PrimType::U8,
        (16, false) => PrimType::U16,
        (32, false) => PrimType::U32,
        (64, false) => PrimType::U64,
        _ => return None,
    })
}

/// An integer read as the integer of the same width and the given
/// signedness (`-1i8` as unsigned is `255u8`); `None` for floats and bools.
/// Sign and zero extension are this followed by [`convert`].
pub fn with_signedness(v: PrimValue, signed: bool) -> Option<PrimValue> {
    let t = v.prim_type();
    if !t.is_int() {
        return None;
    }
    Some(from_bit_pattern(int_type(t.bits(), signed)?, bit_pattern(v)))
}

/// `v` reinterpreted as type `to` of the same width (a bool is 8 bits
/// wide here, as in the value formats).
pub fn bitcast(v: PrimValue, to: PrimType) -> PResult {
    if v.prim_type().bits() != to.bits() {
        return Err(PrimError::Type);
    }
    Ok(from_bit_pattern(to, bit_pattern(v)))
}

/// `f32.to_bits` and friends: a float's encoding as the unsigned integer
/// of its width.
pub fn to_bits(v: PrimValue) -> PResult {
    let t = v.prim_type();
    match int_type(t.bits(), false) {
        Some(u) if t.is_float() => bitcast(v, u),
        _ => Err(PrimError::Type),
    }
}

/// `f32.from_bits` and friends: the float of type `t` with the encoding
/// `v`, an unsigned integer of its width.
pub fn from_bits(t: PrimType, v: PrimValue) -> PResult {
    if !t.is_float() || Some(v.prim_type()) != int_type(t.bits(), false) {
        return Err(PrimError::Type);
    }
    bitcast(v, t)
}
