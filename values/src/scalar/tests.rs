use super::*;
use crate::f16::{f16_to_f32, f32_to_f16, f64_to_f16};

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
    assert_eq!(bit_count(BitCount::Popc, PrimValue::I32(-1)), Ok(PrimValue::I32(32)));
    assert_eq!(bit_count(BitCount::Clz, PrimValue::U16(1)), Ok(PrimValue::I32(15)));
    assert_eq!(bit_count(BitCount::Ctz, PrimValue::I64(0)), Ok(PrimValue::I32(64)));
    assert_eq!(to_bits(PrimValue::F32(1.0)), Ok(PrimValue::U32(0x3f80_0000)));
    assert_eq!(from_bits(PrimType::F64, PrimValue::U64(0)), Ok(PrimValue::F64(0.0)));
}

/// The cases where the reference interpreter and the soac interpreter
/// had implementations of their own; `passes/tests/scalar_semantics.rs`
/// checks that both interpreters and constant folding give these values.
#[test]
fn formerly_duplicated_semantics() {
    use PrimValue::*;
    let b = |op, x, y| binop(op, x, y);
    // The one quotient that overflows wraps; its remainder is 0.
    assert_eq!(b(BinOp::Div, I8(-128), I8(-1)), Ok(I8(-128)));
    assert_eq!(b(BinOp::Quot, I8(-128), I8(-1)), Ok(I8(-128)));
    assert_eq!(b(BinOp::Mod, I8(-128), I8(-1)), Ok(I8(0)));
    assert_eq!(b(BinOp::Rem, I8(-128), I8(-1)), Ok(I8(0)));
    // Floored against truncating, for each sign combination.
    assert_eq!(b(BinOp::Div, I16(7), I16(-2)), Ok(I16(-4)));
    assert_eq!(b(BinOp::Quot, I16(7), I16(-2)), Ok(I16(-3)));
    assert_eq!(b(BinOp::Mod, I16(-7), I16(-2)), Ok(I16(-1)));
    assert_eq!(b(BinOp::Rem, I16(7), I16(-2)), Ok(I16(1)));
    assert_eq!(b(BinOp::Div, I64(-6), I64(3)), Ok(I64(-2)));
    // Shifts by negative amounts and by at least the width.
    assert_eq!(b(BinOp::Shr, I8(-8), I8(-1)), Ok(I8(-1)));
    assert_eq!(b(BinOp::Shr, I8(8), I8(8)), Ok(I8(0)));
    assert_eq!(b(BinOp::Shl, U8(1), U8(8)), Ok(U8(0)));
    assert_eq!(b(BinOp::Shl, U8(1), U8(7)), Ok(U8(128)));
    assert_eq!(b(BinOp::UShr, I16(-1), I16(16)), Ok(I16(0)));
    assert_eq!(b(BinOp::UShr, I16(-1), I16(15)), Ok(I16(1)));
    assert_eq!(b(BinOp::Shr, U64(u64::MAX), U64(u64::MAX)), Ok(U64(0)));
    // f16: computed in f32, rounded to nearest, ties to even.
    let h = |x: f64| F16(f64_to_f16(x));
    assert_eq!(b(BinOp::Add, h(1.0), h(2f64.powi(-11))), Ok(F16(0x3c00)));
    assert_eq!(b(BinOp::Add, h(1.0), h(3.0 * 2f64.powi(-11))), Ok(F16(0x3c02)));
    assert_eq!(b(BinOp::Mul, h(256.0), h(256.0)), Ok(F16(0x7c00)));
    assert_eq!(convert(F64(65519.0), PrimType::F16), F16(0x7bff));
    // Float to integer: truncation, saturation at both ends, NaN to 0.
    assert_eq!(convert(F32(-1e30), PrimType::I16), I16(i16::MIN));
    assert_eq!(convert(F32(1e30), PrimType::U16), U16(u16::MAX));
    assert_eq!(convert(F64(-0.9), PrimType::U32), U32(0));
    assert_eq!(convert(F32(f32::NAN), PrimType::U8), U8(0));
    assert_eq!(convert(F16(0x7e00), PrimType::I32), I32(0));
    assert_eq!(convert(F64(f64::INFINITY), PrimType::I64), I64(i64::MAX));
}

#[test]
fn bit_patterns() {
    use PrimValue::*;
    assert_eq!(bitcast(I32(-1), PrimType::U32), Ok(U32(u32::MAX)));
    assert_eq!(bitcast(F32(1.0), PrimType::I32), Ok(I32(0x3f80_0000)));
    assert_eq!(bitcast(U16(0x3c00), PrimType::F16), Ok(F16(0x3c00)));
    assert_eq!(bitcast(I32(1), PrimType::I64), Err(PrimError::Type));
    assert_eq!(with_signedness(I8(-1), false), Some(U8(255)));
    assert_eq!(with_signedness(U16(0x8000), true), Some(I16(i16::MIN)));
    assert_eq!(with_signedness(F32(1.0), true), None);
    assert_eq!(with_signedness(Bool(true), true), None);
    assert_eq!(to_bits(I32(1)), Err(PrimError::Type));
    assert_eq!(from_bits(PrimType::F32, U64(0)), Err(PrimError::Type));
    assert_eq!(from_bits(PrimType::F16, U16(0x7c00)), Ok(F16(0x7c00)));
    assert_eq!(as_i128(Bool(true)), None);
    assert_eq!(as_i128(U64(u64::MAX)), Some(u64::MAX as i128));
    assert_eq!(convert(Bool(true), PrimType::I8), I8(1));
}
